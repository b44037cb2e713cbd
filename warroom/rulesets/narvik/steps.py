"""The sequence of play as a flow table (seed: Sequence of Play): each game turn is a German player turn, then
an Allied one, each of a reinforcement, movement, air, combat and exploitation phase; the game ends after the
last turn's Allied player turn.

Rows: (naval, the Allies only) -> reinforce -> move -> regroup -> air -> combat -> exploit -> reabsorb -> turn end
-> the other player's turn, the next turn's, or the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom.core.dice import Roll
from warroom.core.errors import clipped
from warroom.core.flow import Step
from warroom.core.state import CHANCE, Action
from warroom.rulesets.narvik.actions import (
    Absorb,
    Break,
    Combine,
    Detach,
    End,
    Fly,
    Interdict,
    Land,
    Move,
    Rail,
    Stand,
    Truck,
    Withdraw,
)
from warroom.rulesets.narvik.air import (
    air_actor,
    air_legal,
    air_over,
    apply_air_step,
    arrive_air,
    begin_air,
    fly_problem,
)
from warroom.rulesets.narvik.combat import attack_strength, defenders, fall_back, resolve, retreat_hex
from warroom.rulesets.narvik.hexes import distance
from warroom.rulesets.narvik.movement import (
    OWNED_KINDS,
    mark_overstacking,
    movement_class,
    owned_by,
    rail_reach,
    reach,
    settle_owner,
    supply_state,
)
from warroom.rulesets.narvik.naval import (
    STAYS_ASHORE,
    apply_naval,
    begin_naval,
    landing_spots,
    landings_left,
    naval_actor,
    naval_legal,
    sea_reach,
)
from warroom.rulesets.narvik.scenario import ALLIED, GERMAN, UnitType
from warroom.rulesets.narvik.state import NarvikRules, NarvikState, other
from warroom.rulesets.narvik.victory import finish

PASSENGER_KINDS = frozenset({"infantry", "machine_gun", "naval_infantry", "parachute"})
"""What a truck carries: one infantry battalion equivalent (seed, difference 7)."""


# ----- reinforcement -----------------------------------------------------------------------------------------
def place(st: NarvikState, uid: str, hid: str, settle: bool = True) -> None:
    """A unit enters the map at `hid` (at the set-up, `settle` is False: who owns what is settled once every unit
    is placed, so that a hex both sides start in stays Norway's)."""
    st.pos[uid] = hid
    if settle:
        settle_owner(st, hid)
    st.changed()


def entering(st: NarvikState, u: UnitType) -> list[str]:
    """The units that enter when `u` does: a German unit that breaks down enters as its parts when the game
    starts broken down (the seed's advice), else as itself; a part enters only with its whole."""
    if u.part_of:
        return []
    if u.breaks_into and u.side == GERMAN and st.params.get("broken_down", True):
        return list(u.breaks_into)
    return [u.id]


def free_hex(st: NarvikState, hid: str, side: str, by_sea: bool = True) -> bool:
    """Where reinforcements may enter: free of enemy units, held by the side if it is a place that has an owner
    (a town has none: paratroops drop on it), and for German reinforcements coming by sea or air not under the
    Allied fleet's interdiction."""
    owned = not st.sc.map.kinds_at(hid) & OWNED_KINDS or owned_by(st, hid) == side
    return owned and not st.units_in(hid, other(side)) and not (by_sea and side == GERMAN and hid == st.interdicted)


def landing_place(st: NarvikState, side: str, meant: str) -> str:
    """Where reinforcements go whose own place is lost: the side's port (or, for the Germans, airfield) free of
    enemy units nearest the hex they were meant for, '' when none (assumption in docs/narvik.md)."""
    kinds = {"port", "airfield"} if side == GERMAN else {"port"}
    spots = sorted((distance(meant, p.hex), p.hex) for p in st.sc.map.places.values()
                   if set(p.kinds) & kinds and free_hex(st, p.hex, side))
    return spots[0][1] if spots else ""


def arrive(st: NarvikState, uid: str) -> bool:
    """One reinforcement's arrival; False when it must wait for a turn."""
    u = st.types[uid]
    _turn, at = u.enters
    hid = st.sc.map.place_hex(at)
    if u.mobilises is not None:
        if owned_by(st, hid) != u.side:  # captured: the seed's word (a centre shared but still held is not)
            st.note(f"{u.name} is lost: {at} is in German hands when it mobilises")
            st.gone.append(uid)
            return True
    elif not free_hex(st, hid, u.side, by_sea=u.condition != "destroyers_sunk"):  # the sailors are ashore
        if u.condition == "destroyers_sunk":
            st.gone.append(uid)
            st.note(f"{u.name}: the crews ashore at {at} are taken prisoner, the port being lost")
            return True
        if u.substitute is not None:
            sub = u.substitute
            near = sorted((distance(hid, h), h) for h in st.sc.map.terrain if st.sc.map.is_land(h)
                          and 1 <= distance(hid, h) <= 3 and not st.units_in(h, other(u.side)))
            st.gone.append(uid)
            if not near:
                st.note(f"{u.name} is lost with the artillery store at {at}, and no hex near it is free")
                return True
            st.types[sub.id] = sub
            place(st, sub.id, near[0][1])
            st.note(f"{at}'s artillery store is lost: {sub.name} forms at {st.hex_name(near[0][1])} instead")
            return True
        hid = landing_place(st, u.side, hid)
        if not hid:
            return False
        st.note(f"{u.name} cannot reach {at} and lands at {st.hex_name(hid)}")
    for part in entering(st, u):
        place(st, part, hid)
    return True


def reinforce(st: NarvikState) -> None:
    """The phasing player's reinforcements and (for the Allies) the Norwegian mobilisation of this turn."""
    side = st.phasing
    due = [u.id for u in st.sc.units.values() if u.side == side and u.enters[0] == st.game_turn and not u.part_of]
    due = [uid for uid in due if st.types[uid].condition != "destroyers_sunk" or st.destroyers_sunk]
    waiting, st.waiting = [w for w in st.waiting if st.types[w].side == side], \
        [w for w in st.waiting if st.types[w].side != side]
    for uid in [*waiting, *sorted(due)]:
        if not arrive(st, uid):
            st.waiting.append(uid)
    arrive_air(st)
    begin_phase(st)


def begin_phase(st: NarvikState) -> None:
    st.moved = set()
    st.landings = 0
    st.regrouped = set()
    st.beginning = True
    st.closing = False
    st.reachable = {}
    st.options = {}
    st.rails = {}
    st.changed()
    st.phase_supply = {u: supply_state(st, u) for u in sorted(st.pos) if st.types[u].side == st.phasing}


# ----- movement and exploitation -----------------------------------------------------------------------------
def exploiting(st: NarvikState) -> bool:
    return st.step in ("exploit", "reabsorb")


def movers(st: NarvikState) -> list[str]:
    """Units of the phasing player that may still move this phase (in exploitation: combat/motorised ones)."""
    return [u for u in sorted(st.pos) if can_move(st, u)]


def reach_of(st: NarvikState, uid: str) -> dict[str, float]:
    got = st.reachable.get(uid)
    if got is None:
        got = reach(st, uid, exploiting(st))
        st.reachable = {**st.reachable, uid: got}
    return got


def passengers(st: NarvikState, truck: str) -> list[str]:
    hid = st.pos[truck]
    return [u for u in st.units_in(hid, st.phasing) if u not in st.moved and u not in st.absorbed
            and st.types[u].kind in PASSENGER_KINDS and st.types[u].size in ("company", "battalion")
            and not st.types[u].motorized]


def may_absorb(st: NarvikState, uid: str, hq: str) -> bool:
    u, h = st.types[uid], st.types[hq]
    if h.hq is None or u.kind == "headquarters" or uid in st.absorbed or hq in st.absorbed or u.side != h.side:
        return False
    if st.pos.get(uid) != st.pos.get(hq) or uid not in st.pos:
        return False
    riders = [r for r, x in st.absorbed.items() if x == hq]
    if h.nation == "norwegian":  # any friendly unit, within limits, a Norwegian one before any Allied one
        if len(riders) >= st.sc.charts.norwegian_limit.get(h.hq.kind, 0):
            return False
        return u.nation == "norwegian" or any(st.types[r].nation == "norwegian" for r in riders)
    return u.designation == h.designation and u.nation == h.nation


def absorb_options(st: NarvikState) -> list[Absorb]:
    hqs = [h for h in sorted(st.pos) if st.types[h].side == st.phasing and st.types[h].hq is not None]
    if not hqs or (st.step in ("move", "exploit") and not st.beginning):
        return []
    out = []
    for hq in hqs:
        for uid in st.units_in(st.pos[hq], st.phasing):
            if may_absorb(st, uid, hq) and (st.step in ("regroup", "reabsorb") or
                                            (uid not in st.moved and hq not in st.moved)):
                out.append(Absorb(uid, hq))
    return out


def combinable(st: NarvikState) -> list[str]:
    out = []
    for u in st.sc.units.values():
        if u.side != st.phasing or not u.breaks_into or u.id in st.pos or u.id in st.gone:
            continue
        parts = u.breaks_into
        hexes = {st.pos.get(p, "") for p in parts}
        if len(hexes) == 1 and "" not in hexes and not any(
                p in st.moved or p in st.absorbed or p in st.regrouped or p in st.disrupted for p in parts):
            out.append(u.id)
    return out


def rails_of(st: NarvikState, uid: str) -> list[str]:
    got = st.rails.get(uid)
    if got is None:
        got = rail_reach(st, uid)
        st.rails = {**st.rails, uid: got}
    return got


def unit_options(st: NarvikState, uid: str) -> tuple[Action, ...]:
    """A unit's moves, rail moves and breakdown this phase (kept for the phase: the enemy does not move in it)."""
    got = st.options.get(uid)
    if got is None:
        exp = exploiting(st)
        out: list[Action] = [Move(uid, h) for h in sorted(reach_of(st, uid))]
        if not exp:
            out.extend(Rail(uid, h) for h in rails_of(st, uid))
            if st.types[uid].breaks_into and uid not in st.regrouped:
                out.append(Break(uid))
        got = tuple(out)
        st.options = {**st.options, uid: got}
    return got


def movement_legal(st: NarvikState) -> list[Action]:
    exp = exploiting(st)
    lifts = landings_left(st) > 0  # asked once: no unit lands when the craft have no lift left
    out: list[Action] = []
    for uid in movers(st):
        out.extend(unit_options(st, uid))
        if not exp and st.types[uid].kind == "truck":
            dests = sorted(reach_of(st, uid))
            out.extend(Truck(uid, p, h) for p in passengers(st, uid) for h in dests)
        if lifts:
            out.extend(Land(uid, h) for h in landing_spots(st, uid))
    if not exp:
        out.extend(Combine(r) for r in combinable(st))
    out.extend(absorb_options(st))
    out.extend(Detach(u) for u in sorted(st.absorbed) if st.types[u].side == st.phasing)
    out.append(End())
    return out


def move_to(st: NarvikState, uid: str, to: str) -> None:
    frm = st.pos[uid]
    riders = [r for r, hq in st.absorbed.items() if hq == uid]
    for u in (uid, *riders):
        st.pos[u] = to
        st.moved.add(u)
    st.beginning = False
    st.changed()
    settle_owner(st, frm)
    settle_owner(st, to)


def forget(st: NarvikState, uid: str) -> None:
    """A headquarters absorbed or let go of a unit: its movement is worked out again."""
    st.reachable = {k: v for k, v in st.reachable.items() if k != uid}
    st.options = {k: v for k, v in st.options.items() if k != uid}


def apply_movement(st: NarvikState, action: Any) -> None:
    if isinstance(action, End):
        st.closing = True
    elif isinstance(action, Move | Rail):
        move_to(st, action.unit, action.to)
    elif isinstance(action, Truck):
        move_to(st, action.truck, action.to)
        move_to(st, action.unit, action.to)
    elif isinstance(action, Land):
        frm = st.pos[action.unit]
        move_to(st, action.unit, action.to)
        st.landings += 1
        st.note(f"{st.name(action.unit)} goes by landing craft from {st.hex_name(frm)} and lands at "
                f"{st.hex_name(action.to)}")
    elif isinstance(action, Break):
        u = st.types[action.unit]
        hid = st.pos.pop(action.unit)
        for part in u.breaks_into:
            st.pos[part] = hid
            st.regrouped.add(part)
            st.phase_supply[part] = supply_state(st, part)
            if action.unit in st.disrupted:
                st.disrupted[part] = st.disrupted[action.unit]
        st.disrupted.pop(action.unit, None)
        st.changed()
    elif isinstance(action, Combine):
        u = st.types[action.unit]
        hid = st.pos[u.breaks_into[0]]
        for part in u.breaks_into:
            del st.pos[part]
        st.pos[action.unit] = hid
        st.regrouped.add(action.unit)
        st.phase_supply[action.unit] = supply_state(st, action.unit)
        st.changed()
    elif isinstance(action, Absorb):
        st.absorbed[action.unit] = action.hq
        forget(st, action.hq)
    elif isinstance(action, Detach):
        hq = st.absorbed.pop(action.unit)
        if hq in st.moved:
            st.moved.add(action.unit)
        st.beginning = False
        forget(st, hq)


def can_move(st: NarvikState, uid: str) -> bool:
    """A unit of the phasing player that has not moved this phase and is not absorbed; in exploitation a
    combat/motorised one carrying nothing that is not (what a headquarters absorbed moves with it)."""
    u = st.types.get(uid)
    if u is None or uid not in st.pos or u.side != st.phasing or uid in st.moved or uid in st.absorbed:
        return False
    return not exploiting(st) or (u.motorized and all(st.types[r].motorized for r, hq in st.absorbed.items()
                                                      if hq == uid))


def allowed(st: NarvikState, action: Any) -> bool:
    """Whether a movement-phase action is among `movement_legal`, without listing them all."""
    exp = exploiting(st)
    if isinstance(action, End):
        return True
    if isinstance(action, Move):
        return can_move(st, action.unit) and action.to in reach_of(st, action.unit)
    if isinstance(action, Rail):
        return not exp and can_move(st, action.unit) and action.to in rails_of(st, action.unit)
    if isinstance(action, Land):
        return can_move(st, action.unit) and action.to in landing_spots(st, action.unit)
    if isinstance(action, Truck):
        return (not exp and can_move(st, action.truck) and st.types[action.truck].kind == "truck"
                and action.unit in passengers(st, action.truck) and action.to in reach_of(st, action.truck))
    if isinstance(action, Break):
        return (not exp and can_move(st, action.unit) and bool(st.types[action.unit].breaks_into)
                and action.unit not in st.regrouped)
    if isinstance(action, Combine):
        return not exp and action.unit in combinable(st)
    if isinstance(action, Absorb):
        return action in absorb_options(st)
    if isinstance(action, Detach):
        return action.unit in st.absorbed and st.types[action.unit].side == st.phasing
    return False


def movement_problem(st: NarvikState, action: Any) -> str:
    return "" if allowed(st, action) else why_not_move(st, action)


def why_not_move(st: NarvikState, action: Any) -> str:
    """The reason a movement-phase action is refused, in words."""
    if isinstance(action, Truck):
        for uid in (action.truck, action.unit):
            if uid not in st.types:
                return f"there is no unit {clipped(uid, 40)!r}"
        if st.types[action.truck].kind != "truck":
            return f"{st.name(action.truck)} is not a truck"
        if can_move(st, action.truck) and action.unit not in passengers(st, action.truck):
            return (f"{st.name(action.truck)} carries one unmoved infantry battalion or company of its own hex, "
                    f"and {st.name(action.unit)} is not one")
    unit = getattr(action, "truck", getattr(action, "unit", ""))
    if unit and unit not in st.types:
        return f"there is no unit {clipped(unit, 40)!r}"
    if unit and st.types[unit].side != st.phasing:
        return f"{st.name(unit)} is not the {st.sc.side_names[st.phasing]}' to move"
    if isinstance(action, Absorb):
        if action.hq not in st.types or st.types[action.hq].hq is None:
            return f"{st.name(action.hq)} is not a headquarters"
        if st.step in ("move", "exploit") and not st.beginning:
            return "units are absorbed at the beginning of a phase, before anything moves, or at its end"
        return (f"{st.name(action.hq)} cannot absorb {st.name(action.unit)} (same hex, and its own formation; "
                "a Norwegian headquarters a Norwegian unit before any Allied one, within its limit)")
    if isinstance(action, Detach):
        return f"{st.name(action.unit)} is not absorbed by a headquarters"
    if isinstance(action, Combine):
        return (f"{st.name(action.unit)} combines only from all its parts, unmoved and in one hex, in the movement "
                "phase")
    if unit and unit not in st.pos and not isinstance(action, Combine):
        return f"{st.name(unit)} is not on the map"
    if isinstance(action, Move | Rail | Truck | Land):
        if unit in st.moved:
            return f"{st.name(unit)} has already moved this phase"
        if unit in st.absorbed:
            return f"{st.name(unit)} is absorbed by a headquarters: detach it first" + (
                "" if isinstance(action, Land) else ", or move the headquarters")
        if exploiting(st) and not st.types[unit].motorized:
            return f"only combat/motorised units move in the exploitation phase, and {st.name(unit)} is not one"
        if isinstance(action, Rail) and exploiting(st):
            return "there is no rail movement in the exploitation phase"
        if isinstance(action, Land):
            return why_not_land(st, action)
        if action.to not in st.sc.map.terrain:
            return f"{action.to} is not a hex of the map"
        terrain = st.sc.map.terrain[action.to]
        if terrain in ("sea", "lake", "neutral"):
            where = "neutral ground (Sweden or Finland)" if terrain == "neutral" else terrain
            return f"{st.hex_name(action.to)} is {where}: no ground unit enters it"
        return f"{st.name(unit)} cannot reach {st.hex_name(action.to)} this phase"
    return f"{action.to_str()!r} is not possible now"


def why_not_land(st: NarvikState, action: Land) -> str:
    c = st.sc.charts
    if not c.landing_lifts:
        return "this scenario gives the Allies no landing craft"
    if st.phasing != ALLIED or st.game_turn < c.landing_from or st.step != "move":
        return (f"only the Allies have landing craft, in their movement phase from turn {c.landing_from} "
                f"({st.sc.dates.get(c.landing_from, '')})")
    if not landings_left(st):
        return f"the landing craft have made their {c.landing_lifts} lifts this phase"
    u = st.types[action.unit]
    if u.kind in STAYS_ASHORE:
        return f"{st.name(action.unit)} does not go by landing craft (headquarters, trucks and depots stay ashore)"
    if action.unit in st.disrupted:
        return f"{st.name(action.unit)} is disrupted: the landing craft take units in good order"
    m = st.sc.map
    if action.to not in m.terrain:
        return f"{action.to} is not a hex of the map"
    start = st.pos[action.unit]
    if action.to == start:
        return f"{st.name(action.unit)} is in {st.hex_name(start)} already"
    if m.terrain[action.to] == "neutral":
        return f"{st.hex_name(action.to)} is neutral ground (Sweden or Finland): no landing there"
    if not m.is_land(action.to):
        return f"{st.hex_name(action.to)} is {m.terrain[action.to]}, not land"
    if st.units_in(start, GERMAN):
        return f"{st.name(action.unit)} cannot embark in a hex the Germans share"
    if not sea_reach(st, start):
        return f"{st.name(action.unit)} is not on the coast: landing craft take units from a hex next to the sea"
    if st.units_in(action.to, GERMAN):
        return f"landings are made on coast free of German units, and {st.hex_name(action.to)} is not"
    if c.cost[m.terrain[action.to]][movement_class(st, u)] <= 0:
        return (f"{st.name(action.unit)} may not enter {m.terrain[action.to]}, so it cannot land in "
                f"{st.hex_name(action.to)}")
    return (f"{st.hex_name(action.to)} is not a stretch of coast within {c.landing_range} sea hexes of "
            f"{st.hex_name(start)}")


# ----- combat ----------------------------------------------------------------------------------------------------
def first_turn_retreat(st: NarvikState, hid: str) -> bool:
    return st.game_turn == 1 and st.phasing == GERMAN and any(
        st.types[u].nation == "norwegian" for u in defenders(st, hid))


def next_battle(st: NarvikState) -> None:
    """Take the next contested hex: its battle begins with the first turn's retreat roll, the defender's choice
    to withdraw (from turn 2), or the combat roll."""
    while st.combats:
        hid = st.combats.pop(0)
        if not defenders(st, hid) or attack_strength(st, hid) <= 0:
            continue
        st.fighting = hid
        may_withdraw = st.game_turn >= 2 and all(retreat_hex(st, u) for u in defenders(st, hid)
                                                 if u not in st.absorbed)
        st.pending = "first" if first_turn_retreat(st, hid) else ("choice" if may_withdraw else "combat")
        return
    st.fighting = ""
    st.pending = ""


def begin_combat(st: NarvikState) -> None:
    mark_overstacking(st)
    st.changed()
    mine, theirs = st.occupied(st.phasing), st.occupied(other(st.phasing))
    st.combats = sorted(mine & theirs)
    next_battle(st)


def combat_actor(st: NarvikState) -> str:
    return other(st.phasing) if st.pending == "choice" else CHANCE


def combat_legal(st: NarvikState) -> Sequence[Action]:
    return [Stand(st.fighting), Withdraw(st.fighting)] if st.pending == "choice" else ()


def apply_combat(st: NarvikState, action: Any) -> None:
    hid = st.fighting
    if isinstance(action, Stand):
        st.pending = "combat"
        return
    if isinstance(action, Withdraw):
        st.pending = "withdraw"
        return
    assert isinstance(action, Roll)
    roll = action.values[0]
    c = st.sc.charts
    if st.pending == "first":
        if roll in c.first_turn_roll:
            st.note(f"die {roll}: the Norwegians in {st.hex_name(hid)} fall back before the attack (first turn)")
            norwegians = [u for u in defenders(st, hid) if st.types[u].nation == "norwegian"]
            fall_back(st, hid, "mandatory retreat", norwegians)
            if defenders(st, hid):
                st.pending = "combat"
                return
        else:
            st.note(f"die {roll}: the Norwegians in {st.hex_name(hid)} stand")
            st.pending = "combat"
            return
    elif st.pending == "withdraw":
        if roll in c.option_roll:
            st.note(f"die {roll}: the defenders of {st.hex_name(hid)} withdraw before combat")
            fall_back(st, hid, "withdrew")
        else:
            st.note(f"die {roll}: the defenders of {st.hex_name(hid)} fail to get away")
            st.pending = "combat"
            return
    else:
        resolve(st, hid, roll)
    next_battle(st)


# ----- the end of a player turn ----------------------------------------------------------------------------------
def end_player_turn(st: NarvikState) -> None:
    mark_overstacking(st)
    done = st.player_turn
    st.disrupted = {u: t for u, t in st.disrupted.items() if t > done}
    if st.phasing == GERMAN:
        st.phasing = ALLIED
        st.interdicted = ""  # the fleet's hold lasts through one German player turn
    else:
        st.phasing = GERMAN
        if st.game_turn >= st.sc.turns:
            finish(st)
            return
        st.game_turn += 1


def after_turn(st: NarvikState) -> str:
    return "" if st.terminal else "naval"


def closing(st: NarvikState) -> bool:
    return st.closing


def build_flow(view: Any, explain: Any) -> NarvikRules:
    def phasing(s: NarvikState) -> str:
        return s.phasing

    def move_end(s: NarvikState) -> None:
        s.closing = False
        s.beginning = False

    steps = [
        Step[NarvikState]("naval", "reinforcement", actor=naval_actor, legal=naval_legal, apply=apply_naval,
                          on_begin=begin_naval, end_if=closing, next=lambda s: "reinforce"),
        Step[NarvikState]("reinforce", "reinforcement", on_begin=reinforce, next=lambda s: "move"),
        Step[NarvikState]("move", "movement", actor=phasing, legal=movement_legal, apply=apply_movement,
                          end_if=closing, next=lambda s: "regroup", problem=movement_problem),
        Step[NarvikState]("regroup", "movement", actor=phasing, legal=lambda s: [*absorb_options(s), End()],
                          apply=apply_movement, on_begin=move_end,
                          end_if=lambda s: s.closing or not absorb_options(s), next=lambda s: "air"),
        Step[NarvikState]("air", "air", actor=air_actor, legal=lambda s: air_legal(s) if s.declaring else (),
                          apply=apply_air_step, on_begin=begin_air, end_if=air_over, next=lambda s: "combat"),
        Step[NarvikState]("combat", "combat", actor=combat_actor, legal=combat_legal, apply=apply_combat,
                          on_begin=begin_combat, end_if=lambda s: not s.fighting, next=lambda s: "exploit"),
        Step[NarvikState]("exploit", "exploitation", actor=phasing, legal=movement_legal, apply=apply_movement,
                          on_begin=begin_phase, end_if=closing, next=lambda s: "reabsorb",
                          problem=movement_problem),
        Step[NarvikState]("reabsorb", "exploitation", actor=phasing, legal=lambda s: [*absorb_options(s), End()],
                          apply=apply_movement, on_begin=move_end,
                          end_if=lambda s: s.closing or not absorb_options(s), next=lambda s: "turn end"),
        Step[NarvikState]("turn end", "exploitation", on_begin=end_player_turn, next=after_turn),
    ]
    return NarvikRules(steps, view, explain)


def refuse(st: NarvikState, action: Action) -> str:
    """A refusal in words: why the action is not legal now."""
    at_home = {Stand: ("combat",), Withdraw: ("combat",), Interdict: ("naval",), Fly: ("air",)}
    for kind, steps in at_home.items():
        if isinstance(action, kind) and st.step not in steps:
            when = {Stand: "by the defender in the combat phase", Withdraw: "by the defender in the combat phase",
                    Interdict: "by the Allies as their player turn begins", Fly: "in the air phase"}[kind]
            return f"{action.to_str()!r} is decided {when}, and this is the {st.phase()} phase"
    if isinstance(action, Interdict):
        return f"the fleet attacks a German-held port, and {st.hex_name(action.hex)} is not one"
    if isinstance(action, Fly):
        return fly_problem(st, action)
    if st.step in ("move", "exploit", "regroup", "reabsorb"):
        return why_not_move(st, action)
    if st.step == "combat" and st.pending == "choice":
        return (f"{st.sc.names[other(st.phasing)]} decide now whether to stand or withdraw in "
                f"{st.hex_name(st.fighting)}")
    return f"{action.to_str()!r} is not legal now ({st.phase()} phase)"
