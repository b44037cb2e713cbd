"""The Firestorm campaigns at the terminal: a new game from `warroom play`'s options, autoplay's lines and the
simulation report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from warroom.cli.common import Terminal, begin_session, fail, outcome_table
from warroom.rulesets import new_game

KAMPEN_OPTIONS = ("germany", "norway", "kampen_allies", "players", "advanced")


def play(sc: Any, seed: int, save: Path | None, sealed: bool, bot: str, options: dict[str, Any]) -> None:
    """A new campaign: the Allies and the Axis each a person or the bot, battles by the General's Wargame, at
    the table or either (`mode`), with `allotment` and `parallel` for tabletop battles."""
    if any(options.get(k) for k in KAMPEN_OPTIONS):
        raise fail("--germany, --norway, --kampen-allies, --players and --advanced are Kampen om Norge options")
    mode, allotment = options["mode"], options.get("allotment")
    players = {sc.sides[0]: options["allies"], sc.sides[1]: options["axis"]}
    params: dict[str, Any] = {"mode": mode, "players": players, "bot": bot}
    if allotment is not None:
        if mode != "mixed":
            raise fail("--allotment only applies with --mode mixed")
        params["allotment"] = allotment
    if options.get("parallel"):
        if mode == "gw":
            raise fail("--parallel applies to tabletop battles: use it with --mode tabletop or --mode mixed")
        params["parallel"] = True
    st = new_game(sc, params)
    begin_session(st, seed, players, bot, save, sealed)


def camp_bots(sc: Any, allies_bot: str, axis_bot: str) -> dict[str, str]:
    return {sc.sides[0]: allies_bot, sc.sides[1]: axis_bot}


def autoplay_lines(sc: Any, st: Any, seed: int, bots: dict[str, str]) -> list[str]:
    first, second = sc.sides
    lines = [f"{sc.title}: autoplay, seed {seed}, "
             f"{sc.side_names[first]} {bots[first]} vs {sc.side_names[second]} {bots[second]}"]
    lines.extend(text for _, text in st.events)
    return lines


def print_report(console: Console, sc: Any, report: dict[str, Any]) -> None:
    console.print(outcome_table(f"{sc.title}: {report['games']} campaigns", report["outcomes"]))
    w = Table(title="Wins")
    for col in ("side", "rate", "95% interval"):
        w.add_column(col)
    for side, row in report["wins"].items():
        lo, hi = row["ci95"]
        w.add_row(sc.side_names.get(side, side), f"{row['rate']:.1%}", f"{lo:.1%} - {hi:.1%}")
    console.print(w)
    vp = report["vp_difference"]
    pct = ", ".join(f"p{q} {v:+d}" for q, v in vp["percentiles"].items())
    console.print(f"VP difference ({vp['of']}): mean {vp['mean']:+.1f}; {pct}")
    h = Table(title="Held at the end")
    h.add_column("area")
    h.add_column("name")
    for s in sc.sides:
        h.add_column(sc.side_names[s])
    for area, row in report["held_at_end"].items():
        h.add_row(area, sc.areas[area].name, *(f"{row[s]:.1%}" for s in sc.sides))
    console.print(h)


TERMINAL = Terminal(
    screen="warroom.cli.screen:screen",
    help="warroom.cli.session:HELP",
    play=play,
    camp_bots=camp_bots,
    game_params=lambda advanced, players: None,
    autoplay_lines=autoplay_lines,
    print_report=print_report,
    report_extra=lambda advanced, players: {},
)
