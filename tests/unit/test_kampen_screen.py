"""The terminal screen of the advanced game shows each country only what its view allows: its own ship cards by
key, another country's face-down cards only counted as that country's cards."""

from __future__ import annotations

import random

from rich.console import Console

from warroom.ai import make_bot
from warroom.cli.kampen_screen import screen
from warroom.core.state import CHANCE
from warroom.rulesets.kampen import KampenState, new_game
from warroom.rulesets.kampen.state import ALLIES, GERMANY


def advanced_until(step: str, seed: int = 3) -> KampenState:
    st = new_game(None, {"advanced": True})
    bots = {c: make_bot("random", random.Random(seed + k)) for k, c in enumerate(st.sc.countries)}
    dice = random.Random(seed)
    while st.step != step:
        assert not st.is_terminal(), f"the game ended before step {step!r}"
        who = st.current_player()
        if who == CHANCE:
            st.apply_action(st.chance_dice().sample(dice))
        else:
            st.apply_action(bots[who].choose(st, st.legal_actions()))
    return st


def shown(st: KampenState, viewer: str) -> str:
    console = Console(width=200, record=True, highlight=False)
    console.print(screen(st, st.legal_actions(), None, viewer))
    return " ".join(console.export_text().split())


def test_face_down_enemy_ships_show_only_as_cards_of_their_country() -> None:
    st = advanced_until("deploy_allies")
    allies, germany = shown(st, ALLIES), shown(st, GERMANY)
    assert "the 9 April round" in allies and "Ship cards at sea (as The Allies see them)" in allies
    hidden = [(sea, c.key) for sea, c in st.fleet.all() if c.owner == GERMANY and not c.face_up
              and c.key not in st.spotted]
    assert hidden, "Germany has deployed face-down ship cards"
    for _sea, key in hidden:
        assert key not in allies and key in germany
    for sea in {s for s, _ in hidden}:
        n = sum(1 for s, _ in hidden if s == sea)
        assert f"{n} German card{'s' * (n > 1)}" in allies
    assert "Ships in hand, still to deploy" in allies and "HMS" in allies  # the Allies' own ships, named


def test_the_sea_battle_and_the_ordinary_round_are_shown() -> None:
    st = advanced_until("sea_join")
    text = shown(st, st.current_player())
    assert st.sea_battle is not None and f"Sea battle in sea area {st.sea_battle.sea}" in text
    later = advanced_until("sea_move")
    assert "round 1, Germany's round" in shown(later, GERMANY)
