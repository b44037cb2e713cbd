"""An interactive campaign at the terminal: humans and bots, dice shown as they roll, autosave."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from warroom import rulesets
from warroom.ai import make_bot
from warroom.cli.advice_view import advise_at_prompt
from warroom.cli.screen import screen
from warroom.core.errors import IllegalActionError, UnknownNameError
from warroom.core.game import Player
from warroom.core.log import SEALED, GameRecord
from warroom.core.state import CHANCE, REPORT, Action

NAVAL_HELP = """Norway, Strategic Actions (locations as codes or ids: B3, narvik_harbour):
  activate LOC ships|subs|air  start an action with a group from one area
  take COUNTER / launch    add a counter to the group (take rodney) / set off
  sail LOC / halt          ships: move on one area / end the action
  dive LOC / attack        submarines: move one area / attack ships there
  fly LOC / bomb HARBOUR   aircraft: strike at ships / special bombing mission
  allocate TARGET N        fire N dice at a target in the fight
  fight / evade            Germans: meet the enemy, or retreat under half fire
  withdraw LOC             retreat on (never back, nor to an enemy home port)
  stand / press            ships hit by submarines: stop and reply, or sail on
  aim COUNTER subs|ships   with enemy ships there too: each counter attacks the submarines or the ships
  sortie COUNTER           Germans, first: lend a Ju-87 to the land battles
  move COUNTER LOC         Strategic Phase: a ship, submarine or aircraft moves
"""
"""The Strategic Game's commands: shown only in a campaign that has one (Norway)."""

HELP = """Type the number of a choice, or the action itself:
  arrow FROM TO            attack an adjacent enemy area           e.g. arrow A2 B2
  commit UNIT [UNIT]       commit troops; @air = air sortie, @carpet = carpet bombing,
                           @defence = German Defence troop; 'commit -' = none
  retreat UNIT AREA        move a defeated troop to a friendly neighbour
  advance UNIT             move into the captured area (battle survivors first)
  place UNIT AREA          place a reinforcement ('place UNIT reserve' for the Tactical Reserve)
  move UNIT AREA           strategic move
  mode gw|tabletop         (mixed mode) roll this battle, or claim it for the tabletop
  report A D               a tabletop result: attacker's and defender's victory points (0-6)
  pass                     no (more) attacks, advances or moves
""" + NAVAL_HELP + """Other commands: log (this turn's full log), options (every legal action), advise [SECONDS] (rank
your plans for this decision by playing the campaign on many times; 60 s of CPU at most unless you give
another limit; Ctrl-C stops it), help, quit (the save keeps the game)."""


Render = Callable[[Any, Sequence[Action], "int | None", "str | None"], Any]
"""A screen: the position, the legal actions, the log lines already seen, and who is looking."""

KAMPEN_HELP = """Type the number of a choice, or the action itself:
  move FROM TO [N]         move N battalions one area; into enemies it is an attack   e.g. move oslo honefoss 2
  move FROM TO N via AREA  a longer move a card allows (the attack is made from AREA)
  play CARD [USE]          play a card from your hand (CARD as shown, e.g. germany_panzer#3)
  fight AREA               (attacker) the next battle to fight
  lose norway|allies       (joint defence) whose battalion is eliminated
  refuse                   (the Allies, 3 players) do not agree to Norway's share of the losses
  retreat AREA             beaten battalions withdraw there together
  exchange CARD            trade a card for its reinforcement symbols (3 symbols = 1 battalion)
  place AREA [N]           place new battalions (or aim a card at AREA)
  discard CARD             (no card used this round) one card goes under the deck
  remove AREA              (Allied deck used up) an Allied battalion leaves the board
  done                     nothing more in this step
Advanced game (ships; sea areas I-VIII, 'raid' is the raid box; SHIP as shown, e.g. blucher#0,
a ship's name alone means its card #0):
  choose CARD              (9 April round) take a 9 April card into your hand
  ship SHIP SEA            put a ship card into a sea area: from your hand, or where a chase or
                           a card sends it                                  e.g. ship blucher I
  sail FROM TO [SHIP]      sail one ship card a sea area on; without SHIP all your free ones there
  intercept                try to find the enemy ship cards in this sea area
  join SHIP                add a ship card the enemy did not find to the sea battle
  sea SEA                  choose a sea area: the next sea battle, or where a card acts
  raid SHIP                (Germany) send a battleship or heavy cruiser from VI-VIII into the raid box
  land SHIP AREA           (Germany, 9 April) the ship lands a battalion on the coast it faces
  recall                   (Germany) call the raiders home: then pay 6 symbols with 'exchange CARD'
  withdraw SHIP            (Allied deck used up) an Allied ship leaves the board
Other commands: log (this round's full log), options (every legal action), advise [SECONDS] (rank
your plans for this decision by playing the game on many times; 60 s of CPU at most unless you give
another limit; Ctrl-C stops it), help, quit (the save keeps the game)."""


class QuitGame(Exception):
    """The human asked to stop (or input ran out); the game so far is kept."""


def help_for(text: str, st: Any) -> str:
    """The help as this game needs it: the Strategic Game's commands only where there is one."""
    return text.replace(NAVAL_HELP, "") if getattr(st, "navy", True) is None else text


class TerminalHuman:
    """A person at the terminal: the `Player` that shows the screen and reads a choice.

    It answers decisions for the sides it plays and, in tabletop mode, the reported results.
    """

    def __init__(self, console: Console, ask: Callable[[str], str], before: Callable[[], None],
                 render: Render = screen, help_text: str = HELP) -> None:
        self.console = console
        self.ask = ask
        self.before = before
        self.render = render
        self.help_text = help_text
        self.seen: int | None = None  # how many log lines the human had seen at their last decision

    def choose(self, state: Any, legal: Sequence[Action]) -> Action:
        st = state
        reporting = st.current_player() == REPORT
        self.before()
        viewer = None if reporting else st.current_player()
        self.console.print(self.render(st, [] if reporting else legal, self.seen, viewer))
        if (ask := rulesets.of(st).asking) is not None:  # what is asked, and why (the club pages say the same)
            self.console.print(ask(st), markup=False, highlight=False, style="italic")
        if reporting and st.step == "await_reports":
            self.console.print("Battles at the table: " + "; ".join(
                f"{b.no}: {st.sc.side_names[b.attacker]} attack {st.area_label(b.to)} from {st.area_label(b.frm)}"
                for b in st.parked if not b.winner), markup=False, highlight=False)
            self.console.print("Report one: 'report BATTLE ATTACKER_VP DEFENDER_VP' (0-6 each)")
        elif reporting:
            self.console.print("Report the tabletop result: 'report ATTACKER_VP DEFENDER_VP' (0-6 each)")
        self.seen = len(st.events)
        while True:
            try:
                text = self.ask("> ").strip()
            except (EOFError, KeyboardInterrupt) as exc:
                self.console.print("\nInput closed." if isinstance(exc, EOFError) else "\nInterrupted.")
                raise QuitGame from exc
            if not text:
                continue
            if text in ("quit", "exit", "q"):
                raise QuitGame
            if text in ("help", "?"):
                self.console.print(help_for(self.help_text, st), markup=False)
                continue
            if text == "options":
                for i, a in enumerate(legal, start=1):
                    self.console.print(f"{i:>4}. {a.to_str()}", markup=False, highlight=False)
                continue
            if text.split(maxsplit=1)[0] == "advise":
                self.console.print(advise_at_prompt(st, self.console, text.split()[1:]))
                continue
            if text == "log":
                for turn, line in st.events:
                    if turn == st.turn:
                        self.console.print(line, markup=False, highlight=False)
                continue
            try:
                if reporting and not text.startswith("report"):
                    raise IllegalActionError("type the tabletop result as 'report ATTACKER_VP DEFENDER_VP', "
                                             "e.g. 'report 4 2'")
                if text.isdecimal() and not reporting:
                    i = int(text) if len(text) <= 9 else 0  # a number of a thousand digits is no choice either
                    if not 1 <= i <= len(legal):
                        raise IllegalActionError("the only choice is 1" if len(legal) == 1
                                                 else f"choose a number from 1 to {len(legal)}")
                    return legal[i - 1]
                action: Action = st.parse_action(text)
                st.clone().apply_action(action)  # the state itself says whether it is legal, and why not
                return action
            except (IllegalActionError, UnknownNameError) as exc:
                self.console.print(f"[red]Not allowed:[/red] {escape(str(exc))}", highlight=False)


SAVE_EVERY = 100  # automatic actions (bots, dice) between two saves


class Session:
    """Runs a campaign to the end or until the human quits; saves as it goes (see `run`)."""

    def __init__(self, st: Any, seed: int, players: dict[str, str], bot: str,
                 save: Path | None, console: Console, ask: Callable[[str], str],
                 dice: random.Random | None = None, render: Render = screen, help_text: str = HELP,
                 sealed: bool = False) -> None:
        self.st = st
        self.seed = seed
        self.sealed = sealed  # the save records no seed: the log alone replays the game
        self.save = save
        self.console = console
        self.dice = dice if dice is not None else random.Random(seed)
        n = len(st.log)
        human = TerminalHuman(console, ask, self.clear_for_human, render, help_text)
        self.human = human
        self.players: dict[str, Player] = {REPORT: human}
        for i, side in enumerate(st.sc.sides):
            self.players[side] = (make_bot(bot, random.Random(seed * 7919 + i * 104729 + n))
                                  if players.get(side) == "bot" else human)
        self.shown = len(st.events)

    def record(self) -> GameRecord:
        record: GameRecord = self.st.record(SEALED if self.sealed else self.seed)
        return record

    def autosave(self) -> None:
        if self.save is not None:
            self.record().save(self.save)

    def flush_events(self) -> None:
        for _, text in self.st.events[self.shown:]:
            self.console.print(text, markup=False, highlight=False)
        self.shown = len(self.st.events)

    def clear_for_human(self) -> None:
        """Before a human decision: a fresh screen on a terminal, else the new log lines."""
        if self.console.is_terminal:
            self.console.clear()
        else:
            self.flush_events()
        self.shown = len(self.st.events)

    def run(self) -> bool:
        """Play on; True when the campaign ended, False when the human quit or input ran out.

        The save is written after every human action and before every human decision, so no input a person
        typed is ever lost; between them, bots and dice save every `SAVE_EVERY` actions and at the end (a
        save after each of them made a long all-bot game quadratic)."""
        st = self.st
        unsaved = 0
        while not st.is_terminal():
            who = st.current_player()
            human = who != CHANCE and self.players[who] is self.human
            if human and unsaved:
                self.autosave()
                unsaved = 0
            if who == CHANCE:
                st.apply_action(st.chance_dice().sample(self.dice))
            else:
                try:
                    action = self.players[who].choose(st, st.legal_actions())
                except QuitGame:
                    self.flush_events()
                    return False
                st.apply_action(action)
            unsaved += 1
            if human or unsaved >= SAVE_EVERY:
                self.autosave()
                unsaved = 0
        self.autosave()
        self.flush_events()
        self.console.print(f"[bold]{escape(st.outcome_text())}[/bold]")
        return True
