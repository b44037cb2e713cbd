"""The Strategic Game (Firestorm: Norway digest section 6): Strategic Actions on the naval/air map before
the land battles of each turn, the strategic moves of counters in the Strategic Phase, conditional
Allied landings and airfield limits.

The rows are added to the shared flow table by `strategic_steps()` (hook `strategic_game`). One
action is: activate a group (`activate LOC ships|subs|air`), form it (`take COUNTER` ... `launch`),
then act with it (`sail`, `dive`/`attack`, `fly`/`bomb`) until it stops. Fights are in `naval_combat`,
the shared Strategic Map helpers in `sea`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from warroom.core.flow import Step, goto
from warroom.rulesets.firestorm.actions import PASS, Move, Order, Pass
from warroom.rulesets.firestorm.chance import chance_step
from warroom.rulesets.firestorm.fleet import SORTIE, NavalState, is_surface
from warroom.rulesets.firestorm.maps import reachable
from warroom.rulesets.firestorm.model import Arrival, FirestormScenario
from warroom.rulesets.firestorm.navy import reopen_harbours, sea_control
from warroom.rulesets.firestorm.norway import pay
from warroom.rulesets.firestorm.state import OFFMAP, WITHDRAWN

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St
from warroom.rulesets.firestorm.naval_combat import (
    alloc_actor,
    alloc_done,
    apply_aim,
    apply_alloc,
    apply_evade,
    apply_reply,
    apply_retreat,
    arrive,
    begin_retreat_step,
    bship_dice,
    evade_actor,
    legal_aim,
    legal_alloc,
    legal_evade,
    legal_reply,
    legal_retreat,
    reply_actor,
    reroll_dice,
    resolve_bship,
    resolve_reroll,
    resolve_roll,
    retreat_actor,
    roll_dice,
    start_air,
    start_sub_attack,
)
from warroom.rulesets.firestorm.sea import (
    air_steps,
    airfield_limit,
    alive,
    counter,
    enemy_ships_here,
    has_room,
    home,
    is_home_port_of_other,
    label,
    land_aircraft,
    names,
    navy_of,
    order,
    relocate,
    sail_options,
    side_label,
)


def begin_actions(st: St) -> None:
    """Order One (6.0-6.1): every unit un-activated; the turn's action count and first side."""
    navy = navy_of(st)
    t = st.sc.turn(st.turn)
    for unit, base in list(navy.sortie_from.items()):  # Stukas lent last turn come home (assumption 11.26)
        if navy.where[unit] == SORTIE:  # to their airfield if it has room left (1.4), else home (11.37)
            navy.where[unit] = base if has_room(st, base, st.sc.counters[unit].side) else home(st, unit)
    navy.sortie_from = {}
    check_airfields(st)  # Bodø may have closed for this turn at the end of the last one (7.6, 11.37)
    navy.activated = set()
    navy.zones = {}
    reopen_harbours(navy)
    navy.landed = {}
    navy.actions_left = t.actions
    navy.player = t.first
    navy.stage = "stuka"
    clear_group(navy)
    st.note(f"--- Strategic Actions: {t.actions} actions, {side_label(st, t.first)} first ---")
    if not stuka_options(st):
        navy.stage = "choose" if navy.actions_left else "end"


def clear_group(navy: NavalState) -> None:
    navy.kind = navy.at = ""
    navy.pool = []
    navy.group = []
    navy.path = []
    navy.no_fight = False
    navy.combat = None
    navy.retreating = []
    navy.retreat_side = ""
    navy.retreat_path = []
    navy.return_to = ""
    navy.reply_subs = ()
    navy.aims = {}


def stuka_options(st: St) -> list[Any]:
    """Ju-87s on airfields may be lent to the land maps for the turn, before any action (7.7, 11.26)."""
    navy = navy_of(st)
    out: list[Any] = []
    for c in st.sc.counters.values():
        if c.land_sortie and navy.in_play(c.id) and st.sc.strat_areas[navy.where[c.id]].kind == "airfield":
            out.append(order("sortie", c.id))
    return out


def stuka_actor(st: St) -> str:
    return st.sc.sides[1]


def legal_stuka(st: St) -> Sequence[Any]:
    return [*stuka_options(st), PASS]


def apply_stuka(st: St, action: Pass | Order) -> None:
    navy = navy_of(st)
    if isinstance(action, Pass):
        navy.stage = "choose" if navy.actions_left else "end"
        return
    assert isinstance(action, Order)
    unit = action.arg
    navy.sortie_from[unit] = navy.where[unit]
    navy.where[unit] = SORTIE
    side = counter(st, unit).side
    st.air_left[side] = st.air_left.get(side, 0) + 1
    st.note(f"{counter(st, unit).name} flies air support for the land battles this turn")
    if not stuka_options(st):
        navy.stage = "choose" if navy.actions_left else "end"


def group_pool(st: St, loc: str, kind: str, side: str) -> list[str]:
    """Un-activated units of `side` that may form one group at `loc` (6.1): ships in a sea area with
    those in its harbours; submarines at one location; aircraft from one airfield, or from the
    carriers in one area (carrier aircraft activate apart from their carrier, 5.3).

    assumption: ships in several harbours on the same sea area may form one group through it.
    """
    sc = st.sc
    navy = navy_of(st)
    counters = sc.counters
    done = navy.activated
    out = []
    for u, w in navy.where.items():
        c = counters[u]
        if c.side != side or u in done or w not in sc.strat_areas:
            continue
        if kind == "ships":
            if is_surface(c) and (w == loc or (sc.strat_areas[w].sea == loc and sc.strat_areas[w].kind != "sea")):
                out.append(u)
        elif kind == "subs":
            if c.type == "submarine" and w == loc:
                out.append(u)
        elif c.is_aircraft and w == loc:
            out.append(u)
    return out


def activation_options(st: St, side: str) -> list[Order]:
    sc = st.sc
    navy = navy_of(st)
    counters = sc.counters
    ships: set[str] = set()
    subs: set[str] = set()
    air: set[str] = set()
    for u, w in navy.where.items():
        c = counters[u]
        if c.side != side or u in navy.activated or w not in sc.strat_areas:
            continue
        if is_surface(c):
            s = sc.strat_areas[w]
            ships.add(w if s.kind == "sea" else s.sea)
        elif c.type == "submarine":
            subs.add(w)
        elif c.is_aircraft and c.type == "bomber" and w not in air and air_targets(st, [u], side):
            air.add(w)
    out = [order("activate", loc, "ships") for loc in sorted(ships)]
    out += [order("activate", loc, "subs") for loc in sorted(subs) if sub_can_act(st, loc, side)]
    out += [order("activate", loc, "air") for loc in sorted(air)]
    return out


def sub_can_act(st: St, loc: str, side: str) -> bool:
    return bool(enemy_ships_here(st, loc, side)) or any(
        st.sc.strat_areas[n].kind != "home_port" for n in st.sc.sea_adj[loc])


def choose_actor(st: St) -> str:
    return navy_of(st).player


def legal_choose(st: St) -> Sequence[Any]:
    navy = navy_of(st)
    return [*activation_options(st, navy.player), PASS]


def apply_choose(st: St, action: Pass | Order) -> None:
    navy = navy_of(st)
    if isinstance(action, Pass):
        st.note(f"{side_label(st, navy.player)} pass ({navy.actions_left - 1} actions left)")
        navy.stage = "done"
        return
    assert isinstance(action, Order)
    navy.kind = action.what
    navy.at = action.arg
    navy.pool = group_pool(st, action.arg, action.what, navy.player)
    navy.group = []
    navy.stage = "form"
    auto_launch(st)


def auto_launch(st: St) -> None:
    """A group with nothing left to choose sets off at once."""
    navy = navy_of(st)
    if len(navy.pool) == 1 and not navy.group:
        navy.group.append(navy.pool.pop())
    if not navy.pool and navy.group:
        launch(st)


def legal_form(st: St) -> Sequence[Any]:
    navy = navy_of(st)
    out: list[Any] = [order("take", u) for u in navy.pool]
    if navy.group:
        out.append(order("launch"))
    return out


def apply_form(st: St, action: Order) -> None:
    navy = navy_of(st)
    assert isinstance(action, Order)
    if action.verb == "launch":
        launch(st)
        return
    navy.pool.remove(action.arg)
    navy.group.append(action.arg)
    if not navy.pool:
        launch(st)


def launch(st: St) -> None:
    """The group is fixed for the whole action (6.1) and counts as activated from now on."""
    navy = navy_of(st)
    navy.activated.update(navy.group)
    side = navy.player
    st.note(f"{side_label(st, side)} activate {names(st, navy.group)} ({label(st, navy.at)})")
    if navy.kind == "ships":
        places = {navy.where[u] for u in navy.group}
        at = places.pop() if len(places) == 1 else navy.at  # ships from harbour and sea meet at sea
        for u in navy.group:
            if navy.where[u] != at:
                relocate(st, u, at)
        navy.at = at
        navy.path = [at]
        navy.stage = "move"
        arrive(st)
    elif navy.kind == "subs":
        navy.path = [navy.at]
        navy.stage = "move"
    else:  # aircraft fly from `navy.at` and come back to it
        navy.stage = "move"


def air_group_range(st: St, group: Sequence[str]) -> int:
    return min(st.sc.counters[u].range for u in group)


def air_targets(st: St, group: Sequence[str], side: str) -> list[Order]:
    """Where an air group may strike (6.6, 6.9): enemy surface ships within range of every aircraft in
    it (a harbour counts in both its areas), or a special bombing mission; a bomber is needed.

    assumption: a group flies together, so its shortest range limits it (digest 6.2).
    """
    sc = st.sc
    navy = navy_of(st)
    if not any(sc.counters[u].type == "bomber" for u in group):
        return []
    base = navy.where[group[0]]
    rng = air_group_range(st, group)
    enemy = sc.other(side)
    targets = sorted({w for u, w in navy.where.items()
                      if w in sc.strat_areas and sc.counters[u].side == enemy and is_surface(sc.counters[u])})
    out = [order("fly", t) for t in targets if air_steps(sc, base, t) <= rng]
    out += [order("bomb", h) for h in bombing_targets(st, side) if air_steps(sc, base, h) <= rng]
    return out


def bombing_targets(st: St, side: str) -> list[str]:
    """The harbours `side` may bomb in a special mission (6.9).

    assumption: only while the enemy holds the port's land area, since the mission closes it as an enemy
    supply port and does nothing else (digest 6.9 suggestion)."""
    sc = st.sc
    return [h for h in sc.rules.value("bombing_targets").get(side, [])
            if st.control.get(sc.strat_areas[h].land) == sc.other(side)]


def legal_move(st: St) -> Sequence[Any]:
    navy = navy_of(st)
    halt = order("halt")
    if navy.kind == "ships":
        return [*sail_options(st), halt]
    if navy.kind == "subs":
        out: list[Any] = []
        if len(navy.path) == 1:
            out += [order("dive", n) for n in st.sc.sea_adj[navy.at] if st.sc.strat_areas[n].kind != "home_port"]
        if enemy_ships_here(st, navy.at, navy.player) and st.sc.strat_areas[navy.at].kind != "home_port":
            out.append(order("attack"))
        return [*out, halt]
    return [*air_targets(st, navy.group, navy.player), halt]


def apply_move(st: St, action: Order) -> None:
    navy = navy_of(st)
    assert isinstance(action, Order)
    verb = action.verb
    if verb == "halt":
        st.note(f"{names(st, alive(st) if navy.kind != 'air' else navy.group)} stop")
        navy.stage = "done"
    elif verb == "sail":
        for u in alive(st):
            relocate(st, u, action.arg)
        navy.at = action.arg
        navy.path.append(action.arg)
        st.note(f"{names(st, navy.group)} sail to {label(st, action.arg)}")
        arrive(st)
    elif verb == "dive":
        for u in navy.group:
            navy.where[u] = action.arg
        navy.at = action.arg
        navy.path.append(action.arg)
        st.note(f"{names(st, navy.group)} move to {label(st, action.arg)}")
    elif verb == "attack":
        start_sub_attack(st, navy.group, enemy_ships_here(st, navy.at, navy.player), reactive=False)
    elif verb in ("fly", "bomb"):
        start_air(st, action.arg, bombing=verb == "bomb")


def next_action(st: St) -> None:
    navy = navy_of(st)
    navy.actions_left -= 1
    navy.player = st.sc.other(navy.player)
    clear_group(navy)
    navy.stage = "choose" if navy.actions_left > 0 else "end"


def end_actions(st: St) -> None:
    """Sea-lane control at the end of the actions decides which Allied landings may sail (6.10, 3.2-3.4,
    11.8): `navy.landed[unit]` is "ok" or "fail"; `strategic_arrivals` lands them."""
    navy = navy_of(st)
    sc = st.sc
    waiting = set(st.flags.landing_wait)
    rows = [a for a in landing_rows(sc) if st.loc[a.unit] == OFFMAP
            and (a in sc.turn(st.turn).arrivals or a.unit in waiting)]
    for h in sorted({a.landing for a in rows}):
        ok = sea_control(st, h, sc.sides[0])
        units = [a.unit for a in rows if a.landing == h]
        for u in units:
            navy.landed[u] = "ok" if ok else "fail"
        st.note(f"Landing at {sc.strat_areas[h].name}: {', '.join(st.name(u) for u in units)} "
                f"{'may land (the Allies hold the sea lane)' if ok else 'cannot land (no sea-lane control)'}")
    navy.stage = "over"


def landing_rows(sc: FirestormScenario) -> list[Arrival]:
    return [a for t in sc.turns for a in t.arrivals if a.landing]


def strategic_arrivals(st: St, arrivals: Sequence[Arrival]) -> list[Arrival]:
    """The arrivals of this Strategic Phase: a landing is made with sea-lane control at the end of the
    actions and its landing area still Allied (+ the turn's `landing_vp` per harbour); a failed turn 1
    landing waits for the next turn (once), others never land; counters enter at their places; Marine
    Regiment Berger if due."""
    navy = st.navy
    if navy is None:
        return list(arrivals)
    sc = st.sc
    out = []
    waiting = set(st.flags.landing_wait)
    rows = list(arrivals) + [a for a in landing_rows(sc) if a.unit in waiting]
    new_wait = []
    made: set[str] = set()
    for a in rows:
        if not a.landing:
            out.append(a)
            continue
        if st.loc[a.unit] != OFFMAP:
            continue
        side = sc.troops[a.unit].side
        # the force lands with sea control and a landing area still held after this turn's battles
        if navy.landed.get(a.unit) == "ok" and (not a.areas or any(st.control[x] == side for x in a.areas)):
            out.append(a)
            made.add(a.landing)
        elif a.on_fail == "wait" and a.unit not in waiting:
            new_wait.append(a.unit)
            st.note(f"{st.name(a.unit)} waits to land next turn")
        else:
            st.loc[a.unit] = WITHDRAWN
            st.note(f"{st.name(a.unit)} never lands")
    vp = sc.turn(st.turn).landing_vp
    for h in sorted(made):  # assumption: the turn 1 +5 is for landings made in turn 1 itself (3.2, 9.3)
        pay(st, f"landing:{h}", sc.sides[0], vp, f"landing at {sc.strat_areas[h].name} in turn {st.turn}")
    st.flags.landing_wait = new_wait
    for c in sc.counters.values():
        if c.arrives == st.turn and navy.where[c.id] == OFFMAP and not c.carrier:
            at = arrival_place(st, c.id)
            relocate(st, c.id, at)
            for plane in sc.counters.values():
                if plane.carrier == c.id and navy.where[plane.id] == OFFMAP:
                    navy.where[plane.id] = at
            st.note(f"{c.name} arrives at {label(st, at)}")
    rule = sc.rules.value("naval_infantry")
    landed, st.flags.naval_infantry = st.flags.naval_infantry, False
    if landed and rule:
        nar = tuple(a.id for a in sc.areas.values() if a.map == rule.get("map") and "fjord" not in a.flags)
        out += [Arrival(u, nar, "strategic") for u in rule.get("troops", ()) if st.loc[u] == OFFMAP]
    return out


def arrival_place(st: St, unit: str) -> str:
    """Where an arriving counter enters: its `arrive_at`, but a ship never enters among enemy surface ships
    (enemy ships share an area only while fighting, 6.4), so it enters at a friendly home port on that sea.

    assumption: the digest does not say what happens when the enemy holds an arrival area (3.3 lists A-4
    only); entering at the home port next to it (A-4: Rosyth) starts no fight outside an action.
    """
    sc = st.sc
    c = sc.counters[unit]
    at = c.arrive_at
    if not is_surface(c) or not enemy_ships_here(st, at, c.side):
        return at
    ports = sorted(p for p, s in sc.strat_areas.items() if s.kind == "home_port" and s.side == c.side and s.sea == at)
    return ports[0] if ports else home_port(st, c.side)


def home_port(st: St, side: str) -> str:
    return sorted(p for p, s in st.sc.strat_areas.items() if s.kind == "home_port" and s.side == side)[0]


_MOVES: dict[tuple[str, str], Move] = {}


def fleet_move_options(st: St, side: str) -> list[Move]:
    """Strategic moves (6.12): ships any distance through seas free of enemy surface ships; submarines up
    to 2 areas; land-based aircraft re-base to a friendly airfield with room. Each counter moves once."""
    navy = navy_of(st)
    sc = st.sc
    enemy = sc.other(side)
    counts: dict[str, int] = {}
    for u in land_aircraft(st, side):
        counts[navy.where[u]] = counts.get(navy.where[u], 0) + 1
    limits = {loc: airfield_limit(st, loc, side) for loc, s in sc.strat_areas.items() if s.kind == "airfield"}
    fields = [loc for loc, limit in limits.items() if limit != 0 and (limit is None or counts.get(loc, 0) < limit)]
    blocked = {w for u, w in navy.where.items() if sc.counters[u].side == enemy and is_surface(sc.counters[u])}
    steps = int(sc.rules.value("sub_strategic_move"))
    memo: dict[tuple[str, str], list[str]] = {}  # (kind, location) -> destinations, shared by a stack

    def ship_dests(w: str) -> list[str]:
        seen = reachable(w, lambda a: [n for n in sc.sea_adj[a] if n not in blocked
                                       and not is_home_port_of_other(sc.strat_areas[n], side)])
        return sorted(seen - {w})

    def sub_dests(w: str) -> list[str]:
        # assumption: submarines never enter a home port, their own included: they may not attack there
        # (6.8) and the digest gives them no other use for one
        near = {w}
        frontier = [w]
        for _ in range(steps):
            frontier = [n for a in frontier for n in sc.sea_adj[a]
                        if n not in near and sc.strat_areas[n].kind != "home_port"]
            near.update(frontier)
        return sorted(near - {w})

    out: list[Move] = []
    for u, w in navy.where.items():
        c = sc.counters[u]
        if c.side != side or u in navy.moved or w not in sc.strat_areas or c.carrier:
            continue
        if is_surface(c) or c.type == "submarine":
            kind = "ship" if is_surface(c) else "sub"
            dests = memo.get((kind, w))
            if dests is None:
                dests = memo[(kind, w)] = ship_dests(w) if kind == "ship" else sub_dests(w)
        elif c.is_aircraft:
            dests = [f for f in fields if f != w]
        else:
            dests = []
        for d in dests:
            move = _MOVES.get((u, d))
            if move is None:
                move = _MOVES[(u, d)] = Move(u, d)
            out.append(move)
    return out


def fleet_mover(st: St) -> str:
    return st.sc.rules.move_order[st.idx]


def begin_fleet_moves(st: St) -> None:
    st.idx = 0
    navy_of(st).moved = set()


def legal_fleet(st: St) -> Sequence[Any]:
    return [*fleet_move_options(st, fleet_mover(st)), PASS]


def apply_fleet(st: St, action: Pass | Move) -> None:
    navy = navy_of(st)
    if isinstance(action, Pass):
        st.note(f"{side_label(st, fleet_mover(st))} end their strategic moves at sea and in the air")
        st.idx += 1
        if st.idx >= len(st.sc.sides):
            check_airfields(st)
        return
    assert isinstance(action, Move)
    frm = navy.where[action.unit]
    relocate(st, action.unit, action.to)
    navy.moved.add(action.unit)
    st.note(f"{counter(st, action.unit).name} moves {label(st, frm)} -> {label(st, action.to)}")


def check_airfields(st: St) -> None:
    """Airfield limits at the end of the Strategic Phase (1.4): aircraft at an airfield that is over its
    limit or no longer usable fly to their home airfield (assumption 11.37)."""
    navy = navy_of(st)
    sc = st.sc
    for side in sc.sides:
        by_field: dict[str, list[str]] = {}
        for u in land_aircraft(st, side):
            by_field.setdefault(navy.where[u], []).append(u)
        for loc, units in sorted(by_field.items()):
            limit = airfield_limit(st, loc, side)
            if limit is None:
                continue
            # assumption: aircraft that arrived this turn keep their place (the Norway Hurricane at C-1, 3.4);
            # the others leave in counter order
            keep_first = sorted(units, key=lambda u: (sc.counters[u].arrives != st.turn, u))
            for u in keep_first[limit:]:
                navy.where[u] = home(st, u)
                st.note(f"{counter(st, u).name} re-bases to {label(st, home(st, u))} (airfield limit)")


ROUTES = {
    "stuka": "sa_stuka", "choose": "sa_choose", "form": "sa_form", "move": "sa_move", "evade": "nv_evade",
    "combat": "nv_alloc", "retreat": "nv_retreat", "reply": "nv_reply", "aim": "nv_aim", "done": "sa_next",
    "end": "sa_end", "over": "plan_place",
}


def route(st: St) -> str:
    return ROUTES[navy_of(st).stage]


def stage_is(name: str) -> Any:
    return lambda st: navy_of(st).stage != name


def strategic_steps() -> list[Step[St]]:
    """The Strategic Game rows of the flow table (hook `strategic_game`)."""
    phase = "strategic actions"
    return [
        Step("sa_start", phase, on_begin=begin_actions, next=route),
        Step("sa_stuka", phase, actor=stuka_actor, legal=legal_stuka, apply=apply_stuka,
             end_if=stage_is("stuka"), next=route),
        Step("sa_choose", phase, actor=choose_actor, legal=legal_choose, apply=apply_choose,
             end_if=stage_is("choose"), next=route),
        Step("sa_form", phase, actor=choose_actor, legal=legal_form, apply=apply_form,
             end_if=stage_is("form"), next=route),
        Step("sa_move", phase, actor=choose_actor, legal=legal_move, apply=apply_move,
             end_if=stage_is("move"), next=route),
        Step("nv_evade", phase, actor=evade_actor, legal=legal_evade, apply=apply_evade,
             end_if=stage_is("evade"), next=route),
        Step("nv_alloc", phase, actor=alloc_actor, legal=legal_alloc, apply=apply_alloc, end_if=alloc_done,
             next=goto("nv_roll")),
        chance_step("nv_roll", phase, roll_dice, resolve_roll, goto("nv_reroll")),
        chance_step("nv_reroll", phase, reroll_dice, resolve_reroll, goto("nv_bship")),
        chance_step("nv_bship", phase, bship_dice, resolve_bship, route),
        Step("nv_retreat", phase, actor=retreat_actor, legal=legal_retreat, apply=apply_retreat,
             on_begin=begin_retreat_step, end_if=stage_is("retreat"), next=route),
        Step("nv_reply", phase, actor=reply_actor, legal=legal_reply, apply=apply_reply,
             end_if=stage_is("reply"), next=route),
        Step("nv_aim", phase, actor=reply_actor, legal=legal_aim, apply=apply_aim,
             end_if=stage_is("aim"), next=route),
        Step("sa_next", phase, on_begin=next_action, next=route),
        Step("sa_end", phase, on_begin=end_actions, next=route),
        Step("fleet_moves", "strategic", actor=fleet_mover, legal=legal_fleet, apply=apply_fleet,
             on_begin=begin_fleet_moves, end_if=lambda st: st.idx >= len(st.sc.sides), next=goto("turn_end")),
    ]
