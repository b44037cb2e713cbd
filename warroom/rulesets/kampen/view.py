"""What a country may see of a Kampen om Norge position.

Hands are secret: a country sees its own cards and only the size of the others' hands. The deck order is
never shown, only how many cards are face down and which are face up under it (they were played openly).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from warroom.rulesets.kampen.state import KampenState


def build_view(st: KampenState, side: str | None) -> dict[str, Any]:
    b = st.battle
    return {
        "scenario": st.sc.id, "round": st.round, "country": st.country, "step": st.step, "phase": st.phase(),
        "to_act": st.current_player(), "viewer": side,
        "troops": {a: dict(c) for a, c in sorted(st.troops.items())},
        "attacks": {a: {"country": x.country, "from": dict(x.origins), "over_water": x.over_water,
                        "by_sea_or_air": x.by_sea_or_air} for a, x in sorted(st.attacks.items())},
        "battle": None if b is None else {
            "area": b.area, "attacker": b.attack.country, "attack_dice": b.att_dice, "defence_dice": b.def_dice,
            "attack_roll": list(b.att_faces), "defence_roll": list(b.def_faces), "winner": b.winner},
        "decks": {c: {"face_down": len(st.draw[c]), "used": list(st.used[c])} for c in st.sc.countries},
        "hands": {c: (list(st.hands[c]) if c == side else len(st.hands[c])) for c in st.sc.countries},
        "terminal": st.terminal,
        "result": {"winner": st.result[0], "level": st.result[1]} if st.terminal else None,
    }
