"""Kampen om Norge at the terminal: seats for two or three players, autoplay and simulation reports."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from warroom.cli.common import Terminal, begin_session, fail, outcome_table, refuse_params
from warroom.rulesets.kampen import new_game
from warroom.rulesets.kampen.scenario import KampenScenario, game_title

COUNTRIES = ("germany", "norway", "allies")


def bots_for(axis_bot: str, allies_bot: str) -> dict[str, str]:
    """The bots of autoplay and simulate: --axis-bot plays Germany, --allies-bot Norway and the Allies."""
    return {"germany": axis_bot, "norway": allies_bot, "allies": allies_bot}


def game_params(advanced: bool) -> dict[str, Any]:
    """The parameters that choose the game: the advanced game is asked for by name, the basic game by nothing
    (so basic saves stay as they were)."""
    return {"advanced": True} if advanced else {}


def seats(germany: Any, norway: Any, allies: Any, players: int | None) -> dict[str, str]:
    """Who plays each country. With two players one person holds Norway and the Allies together (1.2), so
    those two seats must be alike; with three any mix is allowed."""
    g = getattr(germany, "value", germany) or "bot"
    n = getattr(norway, "value", norway) or "human"
    a = getattr(allies, "value", allies) or n
    count = players or 2
    if count == 2 and n != a:
        raise ValueError("with 2 players one person holds Norway and the Allies: give --norway and --kampen-allies "
                         "the same value, or use --players 3")
    return {"germany": g, "norway": n, "allies": a}


def play_kampen(sc: KampenScenario, seed: int, save: Path | None, germany: Any, norway: Any, allies: Any,
                players: int | None, advanced: bool, fail: Callable[[str], Exception], bot: str = "heuristic",
                sealed: bool = False) -> None:
    """`warroom play kampen`: a new game (basic, or with `advanced` the advanced game: ships and the 9 April
    round) with humans and bots in the chosen seats."""
    try:
        who = seats(germany, norway, allies, players)
    except ValueError as exc:
        raise fail(str(exc)) from exc
    st = new_game(sc, game_params(advanced) | {"players": who, "bot": bot, "seats": players or 2})
    begin_session(st, seed, who, bot, save, sealed)


def play(sc: KampenScenario, seed: int, save: Path | None, sealed: bool, bot: str, options: dict[str, Any]) -> None:
    """`warroom play`'s options for Kampen om Norge: who holds each country, how many players, which game."""
    refuse_params(sc, {"mode": options.get("mode") if options.get("mode") != "gw" else None,
                       "allotment": options.get("allotment"), "parallel": options.get("parallel")})
    play_kampen(sc, seed, save, options.get("germany"), options.get("norway"), options.get("kampen_allies"),
                options.get("players"), bool(options.get("advanced")), fail, bot, sealed)


def autoplay_lines(sc: KampenScenario, st: Any, seed: int, bots: dict[str, str]) -> list[str]:
    title = game_title(sc, bool(st.params.get("advanced")))
    lines = [f"{title}: autoplay, seed {seed}, Germany {bots['germany']} vs Norway and the Allies {bots['norway']}"]
    lines.extend(f"R{r} {text}" for r, text in st.events)
    return lines


def print_report(console: Console, sc: KampenScenario, report: dict[str, Any]) -> None:
    title = game_title(sc, bool(report.get("advanced")))
    console.print(outcome_table(f"{title}, {report.get('players', 2)} players: {report['games']} games",
                                report["outcomes"]))
    cities = report["vp_difference"]
    pct = ", ".join(f"p{q} {v}" for q, v in cities["percentiles"].items())
    console.print(f"Point cities German at the end: mean {cities['mean']:.2f}; {pct}")
    h = Table(title="Point cities held at the end")
    for col in ("city", "Germany", "Norway and the Allies", "empty"):
        h.add_column(col)
    held = report["held_at_end"]
    for city in sorted(sc.board.point_cities):
        row = held.get(city, {})
        german, ours = row.get("germany", 0.0), row.get("norway_allies", 0.0)
        h.add_row(sc.board.land[city].name, f"{german:.1%}", f"{ours:.1%}", f"{max(0.0, 1 - german - ours):.1%}")
    console.print(h)


TERMINAL = Terminal(
    screen="warroom.cli.kampen_screen:screen",
    help="warroom.cli.session:KAMPEN_HELP",
    play=play,
    camp_bots=lambda sc, allies_bot, axis_bot: bots_for(axis_bot, allies_bot),
    game_params=lambda advanced, players: game_params(advanced) | ({"seats": players} if players else {}),
    autoplay_lines=autoplay_lines,
    print_report=print_report,
    report_extra=lambda advanced, players: {"advanced": advanced, "players": players or 2},
)
