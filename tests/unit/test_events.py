"""The rules emit typed events and the adapters render them (issue 13, part 5): every battle's result is a
`BattleResolved`, one for each battle the log reports, and the club pages list battles from those alone."""

from __future__ import annotations

from typing import Any

from warroom import rulesets
from warroom.core.events import BattleResolved, TurnEnded
from warroom.scenarios import load_game
from warroom.server.service import battle_lines
from warroom.sim import walk


def play(name: str, seed: int, params: dict[str, Any] | None = None) -> Any:
    return walk.play(rulesets.new_game(load_game(name), params or {}), seed)


def test_every_general_s_wargame_battle_is_one_typed_event() -> None:
    for name in ("caen", "lorraine", "norway"):
        st = play(name, 1)
        fought = [e for e in st.happened if isinstance(e, BattleResolved)]
        notes = [text for _, text in st.events if text.startswith("General's Wargame:")]
        assert fought and len(fought) == len(notes), name
        for e, text in zip(fought, notes, strict=True):
            assert e.how == "General's Wargame" and e.winner in ("attacker", "defender", "")
            assert e.place and e.area in st.sc.areas
            assert ("hold" in text) == (e.winner != "attacker")
        assert any(isinstance(e, TurnEnded) for e in st.happened)


def test_every_kampen_battle_is_one_typed_event_and_the_pages_read_them() -> None:
    st = play("kampen", 2, {"seats": 3})
    fought = [e for e in st.happened if isinstance(e, BattleResolved)]
    rolled = [t for _, t in st.events if t.startswith("Battle of ") and t.endswith(" wins")]
    bluffs = [t for _, t in st.events if t.startswith("Bluff at ") and "withdraw" in t]
    assert fought and len(fought) == len(rolled) + len(bluffs)
    dice = [e for e in fought if e.how == "dice"]
    for e, text in zip(dice, rolled, strict=True):
        assert text.startswith(f"Battle of {e.place}:") and text.endswith(f"the {e.winner} wins")
        assert e.attacker in ("germany", "norway", "allies") and e.defenders
    lines = battle_lines(st)
    assert lines[-1].startswith(f"T{fought[-1].turn} {fought[-1].place}: ")
    assert len(lines) == min(30, len(fought))
