"""An interactive campaign at the terminal: humans and bots, dice shown as they roll, autosave."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from warroom.ai import make_bot
from warroom.cli.screen import screen
from warroom.core.errors import IllegalActionError, UnknownNameError
from warroom.core.log import GameRecord
from warroom.core.state import CHANCE, REPORT
from warroom.rulesets.firestorm.state import FirestormState

HELP = ("Type the number of a choice, or the action itself (e.g. 'arrow A2 B2', 'commit inf_50 @air', "
        "'move arm_11 C3', 'pass'). 'help' shows this, 'quit' stops (the save keeps the game).")


class Session:
    """Runs a campaign to the end or until the human quits; saves after every action."""

    def __init__(self, st: FirestormState, seed: int, players: dict[str, str], bot: str,
                 save: Path | None, console: Console, ask: Callable[[str], str],
                 dice: random.Random | None = None) -> None:
        self.st = st
        self.seed = seed
        self.players = players
        self.save = save
        self.console = console
        self.ask = ask
        self.dice = dice if dice is not None else random.Random(seed)
        n = len(st.log)
        self.bots: dict[str, Any] = {
            side: make_bot(bot, random.Random(seed * 7919 + i * 104729 + n))
            for i, side in enumerate(st.sc.sides) if players.get(side) == "bot"
        }
        self.shown = len(st.events)

    def record(self) -> GameRecord:
        return self.st.record(self.seed)

    def autosave(self) -> None:
        if self.save is not None:
            self.record().save(self.save)

    def flush_events(self) -> None:
        for _, text in self.st.events[self.shown:]:
            self.console.print(text, markup=False, highlight=False)
        self.shown = len(self.st.events)

    def run(self) -> bool:
        """Play on; True when the campaign ended, False when the human quit or input ran out."""
        st = self.st
        while not st.is_terminal():
            who = st.current_player()
            if who == CHANCE:
                st.apply_action(st.chance_dice().sample(self.dice))
            elif who in self.bots:
                st.apply_action(self.bots[who].choose(st, st.legal_actions()))
            elif not self.human_turn(who):
                self.flush_events()
                return False
            self.autosave()
        self.flush_events()
        self.console.print(f"[bold]{escape(st.outcome_text())}[/bold]")
        return True

    def human_turn(self, who: str) -> bool:
        st = self.st
        legal = list(st.legal_actions())
        if self.console.is_terminal:
            self.console.clear()
        else:
            self.flush_events()
        self.shown = len(st.events)
        if who == REPORT:
            self.console.print(screen(st, []))
            self.console.print("Report the tabletop result: 'report ATTACKER_VP DEFENDER_VP' (0-6 each)")
        else:
            self.console.print(screen(st, legal))
        while True:
            try:
                text = self.ask("> ").strip()
            except EOFError:
                self.console.print("Input closed.")
                return False
            if not text:
                continue
            if text in ("quit", "exit", "q"):
                return False
            if text in ("help", "?"):
                self.console.print(HELP, markup=False)
                continue
            try:
                if text.isdecimal() and who != REPORT:
                    i = int(text)
                    if not 1 <= i <= len(legal):
                        raise IllegalActionError(f"choose a number from 1 to {len(legal)}")
                    action = legal[i - 1]
                else:
                    action = st.parse_action(text)
                st.apply_action(action)
                return True
            except (IllegalActionError, UnknownNameError) as exc:
                self.console.print(f"[red]Not allowed:[/red] {escape(str(exc))}", highlight=False)
