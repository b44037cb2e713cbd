"""What a player sees of a Narvik position: everything (the game hides nothing but the dice to come)."""

from __future__ import annotations

from typing import Any

from warroom.rulesets.narvik.combat import odds
from warroom.rulesets.narvik.movement import OWNED_KINDS, owned_by
from warroom.rulesets.narvik.naval import landings_left
from warroom.rulesets.narvik.state import NarvikState
from warroom.rulesets.narvik.victory import german_ports, level


def unit_entry(st: NarvikState, uid: str) -> dict[str, Any]:
    u = st.types[uid]
    return {"id": uid, "name": u.name, "short": u.short, "side": u.side, "nation": u.nation, "kind": u.kind,
            "size": u.size, "attack": u.attack, "defense": u.defense, "movement": u.movement,
            "motorized": u.motorized, "hex": st.pos[uid], "disrupted": uid in st.disrupted,
            "overstacked": uid in st.overstacked, "absorbed_by": st.absorbed.get(uid, ""), "key_vp": u.key_vp}


def build_view(st: NarvikState, side: str | None) -> dict[str, Any]:
    m = st.sc.map
    places = {p.hex for p in m.places.values() if set(p.kinds) & OWNED_KINDS}
    battle = None
    if st.fighting:
        a, d, shift, col = odds(st.clone(), st.fighting)
        battle = {"hex": st.fighting, "attack": a, "defense": d, "terrain_shift": shift,
                  "column": st.sc.charts.columns[col], "asking": st.pending}
    return {
        "scenario": st.sc.id, "turn": st.game_turn, "dates": st.sc.dates.get(st.game_turn, ""),
        "phasing": st.phasing, "step": st.step, "phase": st.phase(), "to_act": st.current_player(),
        "viewer": side,
        "units": [unit_entry(st, u) for u in sorted(st.pos)],
        "owners": {h: owned_by(st, h) for h in sorted(places)},
        "victory_ports_german": german_ports(st),
        "victory_points": dict(st.vp),
        "standing": level(st),
        "combats_left": list(st.combats), "battle": battle,
        "waiting_reinforcements": list(st.waiting),
        "interdicted": st.interdicted or None, "landings_left": landings_left(st),
        "eliminated": list(st.gone),
        "terminal": st.terminal,
        "result": st.result or None,
    }
