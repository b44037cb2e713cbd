"""Per-side views: what a side may see of a Firestorm position.

Firestorm has little hidden information; the seed and future dice are never part of a view. In the
Norway Strategic Game each side declares its dice before the roll (digest 6.3, 6.6): until a fight's
dice are rolled, a side sees only its own allocation, and a spectator (`view(None)`) sees neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.rulesets.firestorm.battle import Battle
from warroom.rulesets.firestorm.fleet import SORTIE
from warroom.rulesets.firestorm.sea import airfield_limit
from warroom.rulesets.firestorm.state import GONE, OFF_BOARD, OFFMAP

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.fleet import Combat, NavalState
    from warroom.rulesets.firestorm.state import FirestormState


def battle_view(st: FirestormState, b: Battle) -> dict[str, Any]:
    return {
        "no": b.no, "kind": b.kind, "attacker": b.attacker, "defender": b.defender, "from": b.frm, "to": b.to,
        "mode": b.mode, "attacker_troops": list(b.att), "defender_troops": list(b.dfn),
        "attacker_supplied": b.att_supplied, "defender_supplied": b.def_supplied,
        "modifiers": {s: [[label, v] for label, v in m] for s, m in b.modifiers.items()},
        "attacker_total": b.att_total, "defender_total": b.def_total, "winner": b.winner,
        "notes": list(b.notes),
    }


def build_view(st: FirestormState, side: str | None) -> dict[str, Any]:
    sc = st.sc
    at: dict[str, list[str]] = {}  # `st.units_at` of every area, from one pass over the troops (in their order)
    for u, where in st.loc.items():
        here = at.get(where)
        if here is None:
            at[where] = [u]
        else:
            here.append(u)
    areas = []
    for a in sc.areas.values():
        areas.append({
            "id": a.id, "name": a.name, "vp": a.vp, "terrain": a.terrain, "controller": st.control[a.id],
            "troops": at.get(a.id, []), "supplied": st.in_supply(a.id, st.control[a.id]),
            "x": a.x, "y": a.y, "flags": sorted(a.flags), "supply_source": a.supply,
        })
    off = {u: w for u, w in st.loc.items() if w in OFF_BOARD}
    return {
        "scenario": sc.id, "turn": st.turn, "turns": len(sc.turns), "step": st.step, "phase": st.phase(),
        "to_act": st.current_player(), "viewer": side,
        "vp": {s: {"total": st.total_vp(s), "areas": st.area_vp(s), "troops": st.unit_vp[s],
                   "bonus": st.bonus_vp[s]} for s in sc.sides},
        "battles_left": st.battles_left, "air_sorties": dict(st.air_left), "areas": areas,
        "off_board": off, "battle": battle_view(st, st.battle) if st.battle is not None else None,
        "open_battles": [{**battle_view(st, b), "waiting_for_result": not b.winner} for b in st.parked],
        "terminal": st.terminal, "outcome": st.outcome_text() if st.terminal else None,
        **({"strategic": strategic_view(st, st.navy, side)} if st.navy is not None else {}),
    }


def strategic_view(st: FirestormState, navy: NavalState, side: str | None) -> dict[str, Any]:
    """The Strategic Map (Norway digest sections 1.2-1.4, 5, 6): its locations, every counter in play, the
    Strategic Actions in progress (whose action, how many are left, the group) and the open fight."""
    sc = st.sc
    locations = []
    for s in sc.strat_areas.values():
        row: dict[str, Any] = {
            "id": s.id, "name": s.name, "kind": s.kind, "x": s.x, "y": s.y, "side": s.side, "sea": s.sea,
            "region": s.region, "land": s.land, "defence": s.defence, "bombed": s.id in navy.closed_harbours,
        }
        if s.kind == "airfield":
            limit = airfield_limit(st, s.id, s.side)
            row["usable"] = limit != 0
            row["aircraft_limit"] = limit
        locations.append(row)
    counters = []
    for u, where in navy.where.items():
        if where not in sc.strat_areas:
            continue
        c = sc.counters[u]
        counters.append({"id": u, "name": c.name, "side": c.side, "type": c.type, "cv": c.cv, "location": where,
                         "activated": u in navy.activated, "moved": u in navy.moved, "carrier": c.carrier})
    off: dict[str, list[str]] = {"sortie": [], "destroyed": [], "not_arrived": []}
    for u, where in navy.where.items():
        key = {SORTIE: "sortie", GONE: "destroyed", OFFMAP: "not_arrived"}.get(where)
        if key is not None:
            off[key].append(u)
    group = None
    if navy.kind:
        group = {"kind": navy.kind, "side": navy.player, "stage": navy.stage, "at": navy.at,
                 "units": list(navy.group), "may_join": list(navy.pool), "path": list(navy.path),
                 "no_fight": navy.no_fight}
    retreat = None
    if navy.retreating:
        retreat = {"side": navy.retreat_side, "units": [u for u in navy.retreating if navy.where[u] != GONE],
                   "path": list(navy.retreat_path)}
    return {
        "actions_left": navy.actions_left, "player": navy.player, "stage": navy.stage,
        "locations": locations, "counters": counters, "off_map": off, "group": group, "retreat": retreat,
        "combat": combat_view(st, navy.combat, side) if navy.combat is not None else None,
        "bombed": sorted(navy.closed_harbours), "landings": dict(navy.landed),
    }


def combat_view(st: FirestormState, combat: Combat, side: str | None) -> dict[str, Any]:
    """A fight and its volleys. Dice are declared in secret and rolled at once (digest 6.3): before the roll
    a volley's allocation is shown only to the side that fires it."""
    rolled = bool(combat.faces)
    volleys = []
    for i, v in enumerate(combat.volleys):
        row: dict[str, Any] = {"side": v.side, "label": v.label, "dice": v.dice, "targets": list(v.targets),
                               "rerolls": v.reroll, "may_hold": v.may_hold}
        if rolled or v.side == side:
            row["hidden"] = False
            row["alloc"] = dict(v.alloc)
            row["left"] = v.left()
        else:
            row["hidden"] = True
        if rolled and i < len(combat.faces):
            row["faces"] = list(combat.faces[i])
        volleys.append(row)
    return {"kind": combat.kind, "at": combat.at, "active": combat.active, "attackers": list(combat.attackers),
            "defenders": list(combat.defenders), "evade": combat.evade, "rolled": rolled,
            "hits": dict(combat.hits) if rolled else {}, "volleys": volleys}
