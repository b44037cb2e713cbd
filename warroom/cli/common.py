"""What the terminal commands share: the consoles, error exits, tables, and the screen of each rule system."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from warroom import rulesets

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)
SCREENS: dict[str, tuple[str, str]] = {
    "firestorm": ("warroom.cli.screen:screen", "warroom.cli.session:HELP"),
    "kampen": ("warroom.cli.kampen_screen:screen", "warroom.cli.session:KAMPEN_HELP"),
}
"""The terminal's drawing of each registered rule system (by the registry's id) and its help text, as entry
points: they are loaded only when a game is played, so that the other commands start quickly."""


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/bold red] {escape(message)}", markup=True)
    return typer.Exit(code)


def outcome_table(title: str, outcomes: dict[str, Any]) -> Table:
    """Simulated outcomes with their rates and 95% intervals (any rule system)."""
    t = Table(title=title)
    for col in ("outcome", "games", "rate", "95% interval"):
        t.add_column(col)
    for name, row in outcomes.items():
        lo, hi = row["ci95"]
        t.add_row(name, str(row["count"]), f"{row['rate']:.1%}", f"{lo:.1%} - {hi:.1%}")
    return t


def start_session(st: Any, seed: int, players: dict[str, str], bot: str, save: Path | None,
                  dice: random.Random | None = None, sealed: bool = False) -> None:
    """Play `st` at the terminal, with the screen of its rule system."""
    from warroom.cli.session import Session  # the screens load with it, only when a game is played

    console = Console(highlight=False)
    render, help_text = (rulesets.resolve(spec) for spec in SCREENS[rulesets.of(st).id])
    session = Session(st, seed, players, bot, save, console, input, dice, render, help_text, sealed)
    finished = session.run()
    if not finished and save is not None:
        console.print(f"Game saved to {save}. Continue with: warroom resume {save}", markup=False)
