"""What the terminal commands share: the consoles, error exits, tables, and the screen of each rule system."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from warroom import rulesets
from warroom.core.log import SEALED

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)
TERMINALS: dict[str, str] = {
    "firestorm": "warroom.cli.firestorm_cli:TERMINAL",
    "kampen": "warroom.cli.kampen_cli:TERMINAL",
    "narvik": "warroom.cli.narvik_cli:TERMINAL",
}
"""How the terminal plays each registered rule system (by the registry's id), as an entry point to its
`Terminal`: loaded only when a command needs it, so that the others start quickly."""


@dataclass(frozen=True)
class Terminal:
    """How the terminal plays one rule system: its screen and help text (entry points, loaded only when a game is
    played), a new game from `warroom play`'s options, the bots of the two camps that `--allies-bot` and
    `--axis-bot` name, the game parameters and report lines of `autoplay`, and the simulation report."""

    screen: str
    help: str
    play: Callable[[Any, int, Path | None, bool, str, dict[str, Any]], None]
    """`play(scenario, seed, save, sealed, bot, options)`: options as typed (None or False: not given)."""
    camp_bots: Callable[[Any, str, str], dict[str, str]]
    """`camp_bots(scenario, allies_bot, axis_bot)`: the bot of each side."""
    game_params: Callable[[bool, int | None], dict[str, Any] | None]
    """`game_params(advanced, players)`: the parameters of a bot game (None: the system's default)."""
    autoplay_lines: Callable[[Any, Any, int, dict[str, str]], list[str]]
    """`autoplay_lines(scenario, finished game, seed, bots)`: what `autoplay` prints."""
    print_report: Callable[[Console, Any, dict[str, Any]], None]
    report_extra: Callable[[bool, int | None], dict[str, Any]]
    """`report_extra(advanced, players)`: what a simulation report says of the game besides its outcomes."""


def terminal(system_id: str) -> Terminal | None:
    """The terminal's way of playing a rule system; None for one it cannot play (a plug-in without one)."""
    spec = TERMINALS.get(system_id)
    return None if spec is None else cast(Terminal, rulesets.resolve(spec))


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/bold red] {escape(message)}", markup=True)
    return typer.Exit(code)


def refuse_params(sc: Any, given: dict[str, Any]) -> None:
    """Refuse, naming the option, a game parameter the scenario's rule system does not read: e.g. --advanced
    (Kampen om Norge's advanced game) for a Firestorm campaign."""
    system = rulesets.of(sc)
    for name, value in given.items():
        if value in (None, False) or name in system.params:
            continue
        owners = [s for s in rulesets.systems().values() if name in s.params]
        what = f"a {owners[0].name.removeprefix('the ')} option ({owners[0].params[name]})" if owners \
            else "not a game option"
        raise fail(f"--{OPTION_OF.get(name, name)} is {what}; {sc.title} has no such option")


OPTION_OF = {"seats": "players"}
"""The command-line option of a game parameter, where its name differs."""


def outcome_table(title: str, outcomes: dict[str, Any]) -> Table:
    """Simulated outcomes with their rates and 95% intervals (any rule system)."""
    t = Table(title=title)
    for col in ("outcome", "games", "rate", "95% interval"):
        t.add_column(col)
    for name, row in outcomes.items():
        lo, hi = row["ci95"]
        t.add_row(name, str(row["count"]), f"{row['rate']:.1%}", f"{lo:.1%} - {hi:.1%}")
    return t


def write_save(st: Any, save: Path, seed: int) -> None:
    """Write the game's save, or exit naming why it cannot be written."""
    try:
        st.record(seed).save(save)
    except OSError as exc:
        raise fail(f"cannot write save file {save}: {exc}") from exc


def begin_session(st: Any, seed: int, players: dict[str, str], bot: str, save: Path | None, sealed: bool) -> None:
    """A new game at the terminal: saved first when a save file is given (without its seed when sealed), then
    played."""
    if save is not None:
        write_save(st, save, SEALED if sealed else seed)
    start_session(st, seed, players, bot, save, sealed=sealed)


def start_session(st: Any, seed: int, players: dict[str, str], bot: str, save: Path | None,
                  dice: random.Random | None = None, sealed: bool = False) -> None:
    """Play `st` at the terminal, with the screen of its rule system."""
    from warroom.cli.session import Session  # the screens load with it, only when a game is played

    console = Console(highlight=False)
    way = terminal(rulesets.of(st).id)
    assert way is not None, "a game of a system the terminal cannot play"
    render, help_text = rulesets.resolve(way.screen), rulesets.resolve(way.help)
    session = Session(st, seed, players, bot, save, console, input, dice, render, help_text, sealed)
    finished = session.run()
    if not finished and save is not None:
        # one line however narrow the terminal, so that the path copies whole
        console.print(f"Game saved to {save}. Continue with: warroom resume {save}", markup=False, soft_wrap=True)
