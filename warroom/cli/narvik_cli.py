"""Narvik at the terminal: the Germans and the Allies each a person or a bot, autoplay and simulation reports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console

from warroom.cli.common import Terminal, begin_session, fail, outcome_table, refuse_params
from warroom.rulesets.narvik import new_game
from warroom.rulesets.narvik.scenario import ALLIED, GERMAN, NarvikScenario

HELP = """Type the number of a choice, or the action itself (HEX: four digits, column then row, or a place name):
  move UNIT HEX            move a unit (with what its headquarters absorbed) to a hex it can reach this phase
  rail UNIT HEX            rail movement: the unit's whole move, along railway hexes free of the enemy
  truck TRUCK UNIT HEX     a truck carries an infantry battalion stacked with it
  land UNIT HEX            (the Allies, from turn 9) landing craft carry a unit along the coast
  break UNIT / combine UNIT   break a unit down into its parts / put its parts together again
  absorb UNIT HQ / detach UNIT   a headquarters takes a unit in (stacking) / lets it go
  fly AIR support|bomb|cover HEX   an air mission: ground support, interdiction, air superiority
  fly AIR carry HEX UNIT   air transport to a friendly airfield, or a parachute drop on a place
  interdict HEX            (the Allies, as their turn begins) the fleet attacks a German-held port
  stand HEX / withdraw HEX (attacked, from turn 2) fight, or try to fall back before combat
  end                      end the phase (or the air missions, or the fleet's attack)
Other commands: log (this turn's full log), options (every legal action), advise [SECONDS], help, quit (the save
keeps the game)."""


def play(sc: NarvikScenario, seed: int, save: Path | None, sealed: bool, bot: str, options: dict[str, Any]) -> None:
    """`warroom play narvik`: --axis plays the Germans, --allies the Norwegians and their allies."""
    refuse_params(sc, {"mode": options.get("mode") if options.get("mode") != "gw" else None,
                       "allotment": options.get("allotment"), "parallel": options.get("parallel"),
                       "advanced": options.get("advanced"), "seats": options.get("players")})
    if any(options.get(k) for k in ("germany", "norway", "kampen_allies")):
        raise fail("--germany, --norway and --kampen-allies are Kampen om Norge options: for Narvik use --axis "
                   "(the Germans) and --allies")
    players = {GERMAN: options["axis"], ALLIED: options["allies"]}
    st = new_game(sc, {"players": players, "bot": bot})
    begin_session(st, seed, players, bot, save, sealed)


def autoplay_lines(sc: NarvikScenario, st: Any, seed: int, bots: dict[str, str]) -> list[str]:
    lines = [f"{sc.title}: autoplay, seed {seed}, the Germans {bots[GERMAN]} vs the Allies {bots[ALLIED]}"]
    lines.extend(f"T{t} {text}" for t, text in st.events)
    return lines


def print_report(console: Console, sc: NarvikScenario, report: dict[str, Any]) -> None:
    console.print(outcome_table(f"{sc.title}: {report['games']} games", report["outcomes"]))
    ports = report["vp_difference"]
    pct = ", ".join(f"p{q} {v}" for q, v in ports["percentiles"].items())
    console.print(f"Victory ports German at the end: mean {ports['mean']:.2f}; {pct}")


TERMINAL = Terminal(
    screen="warroom.cli.narvik_screen:screen",
    help="warroom.cli.narvik_cli:HELP",
    play=play,
    camp_bots=lambda sc, allies_bot, axis_bot: {GERMAN: axis_bot, ALLIED: allies_bot},
    game_params=lambda advanced, players: None,
    autoplay_lines=autoplay_lines,
    print_report=print_report,
    report_extra=lambda advanced, players: {},
)
