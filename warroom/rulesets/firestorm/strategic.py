"""The Strategic Game (Firestorm: Norway digest section 6): Strategic Actions on the naval/air map before
the land battles of each turn, the strategic moves of counters in the Strategic Phase, conditional
Allied landings and airfield limits.

The rows are added to the shared flow table by `strategic_steps()` (hook `strategic_game`). One
action is: activate a group (`activate LOC ships|subs|air`), form it (`take COUNTER` ... `launch`),
then act with it (`sail`, `dive`/`attack`, `fly`/`bomb`) until it stops. Fights are in `naval_combat`,
the shared Strategic Map helpers in `sea`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from warroom.core.flow import Step, goto
from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import GROUP_KINDS, PASS, Order, Pass
from warroom.rulesets.firestorm.chance import chance_step
from warroom.rulesets.firestorm.fleet import SORTIE, NavalState, is_surface
from warroom.rulesets.firestorm.fleet_moves import (
    apply_fleet,
    begin_fleet_moves,
    check_airfields,
    fleet_move_problem,
    fleet_mover,
    legal_fleet,
)
from warroom.rulesets.firestorm.model import Arrival, FirestormScenario
from warroom.rulesets.firestorm.navy import reopen_harbours, sea_control
from warroom.rulesets.firestorm.norway import pay
from warroom.rulesets.firestorm.state import OFFMAP, WITHDRAWN

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St
from warroom.rulesets.firestorm.naval_combat import (
    aim_problem,
    alloc_actor,
    alloc_done,
    alloc_problem,
    apply_aim,
    apply_alloc,
    apply_evade,
    apply_reply,
    apply_retreat,
    arrive,
    begin_retreat_step,
    bship_dice,
    evade_actor,
    evade_problem,
    legal_aim,
    legal_alloc,
    legal_evade,
    legal_reply,
    legal_retreat,
    reply_actor,
    reply_problem,
    reroll_dice,
    resolve_bship,
    resolve_reroll,
    resolve_roll,
    retreat_actor,
    roll_dice,
    start_air,
    start_sub_attack,
    withdraw_step_problem,
)
from warroom.rulesets.firestorm.sea import (
    KIND_TEXT,
    NOT_NOW,
    air_steps,
    alive,
    counter,
    counter_problem,
    enemy_ships_here,
    has_room,
    home,
    label,
    listing,
    location_problem,
    names,
    navy_of,
    not_next_to,
    order,
    place,
    relocate,
    sail_options,
    sail_problem,
    side_label,
    side_name,
    well_formed,
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


def sortie_problem(st: St, unit: str, words: bool = True) -> str:
    """Why `unit` may not be lent to the land maps now ('' if it may): German Ju-87s on an airfield, before
    any action of the turn (7.7, 11.26). Without `words`, a refusal does not list the Ju-87s that may go (the
    list of them asks this function)."""
    sc = st.sc
    bad = counter_problem(st, unit, sc.sides[1])
    if bad:
        return bad
    c = sc.counters[unit]
    if not c.land_sortie:
        return f"only Ju-87s may fly air support for the land battles (7.7); {c.name} is a {c.type}"
    navy = navy_of(st)
    where = navy.where[unit]
    if where == SORTIE:
        return f"{c.name} already flies air support for the land battles this turn"
    if not navy.in_play(unit) or sc.strat_areas[where].kind != "airfield":
        away = f"{c.name} is not at an airfield (7.7)"
        return f"{away}; Ju-87s that may go: {listing([o.arg for o in stuka_options(st)])}" if words else away
    return ""


def stuka_options(st: St) -> list[Any]:
    """Ju-87s on airfields may be lent to the land maps for the turn, before any action (7.7, 11.26)."""
    return [order("sortie", c.id) for c in st.sc.counters.values()
            if c.land_sortie and not sortie_problem(st, c.id, words=False)]


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


def group_pool(st: St, loc: str, kind: str, side: str, every: bool = False) -> list[str]:
    """Un-activated units of `side` that may form one group at `loc` (6.1): ships in a sea area with
    those in its harbours; submarines at one location; aircraft from one airfield, or from the
    carriers in one area (carrier aircraft activate apart from their carrier, 5.3).

    assumption: ships in several harbours on the same sea area may form one group through it.
    With `every`, activated units count too.
    """
    sc = st.sc
    navy = navy_of(st)
    counters = sc.counters
    done = navy.activated
    out = []
    for u, w in navy.where.items():
        c = counters[u]
        if c.side != side or (u in done and not every) or w not in sc.strat_areas:
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


def activate_problem(st: St, side: str, loc: str, kind: str, pool: list[str] | None = None,
                     surface: frozenset[str] | None = None) -> str:
    """Why `side` may not activate a group of `kind` at `loc` now ('' if it may): one kind of un-activated unit
    from one area (6.1); submarines need an enemy ship to attack or an area to move to (6.8); aircraft a bomber
    with a target in its range (6.6, 6.9). `pool` (the group that could form) and `surface` (`enemy_surface`)
    may be passed in when known."""
    sc = st.sc
    bad = location_problem(st, loc)
    if bad or kind not in GROUP_KINDS:
        return bad or f"unknown group kind {kind!r} (use ships, subs or air)"
    s = sc.strat_areas[loc]
    if kind == "ships" and s.kind != "sea":
        if s.sea:
            return f"ships in {place(st, loc)} activate through its sea area: 'activate {s.sea} ships' (6.1)"
        return f"{place(st, loc)} is not a sea area: ships are activated in a sea area with its harbours (6.1)"
    if pool is None:
        pool = group_pool(st, loc, kind, side)
    if not pool:
        navy = navy_of(st)
        if any(u in navy.activated for u in group_pool(st, loc, kind, side, every=True)):
            return (f"every one of your {kind} at {place(st, loc)} has already been activated this turn: "
                    "an activated unit cannot act again except to retreat (6.1)")
        where = [o.arg for o in activation_options(st, side) if o.what == kind]
        return f"you have no un-activated {kind} at {place(st, loc)}; yours can act from: {listing(where)}"
    if kind == "subs" and not sub_can_act(st, loc, side):
        return (f"the submarines at {place(st, loc)} have no enemy ships to attack and no area to move to "
                "(home ports are closed to them, 6.2, 6.8)")
    if kind == "air":
        bombers = [u for u in pool if sc.counters[u].type == "bomber"]
        if not bombers:
            return "an air action needs a bomber: fighters only escort or defend (6.6)"
        if not any(has_air_target(st, [u], side, surface) for u in bombers):
            return (f"no enemy surface ships or special bombing target are within range of the bombers at "
                    f"{place(st, loc)} (6.2, 6.6, 6.9)")
    return ""


def activation_options(st: St, side: str) -> list[Order]:
    """Every group `side` may activate: where its un-activated units of each kind are, less what
    `activate_problem` finds against."""
    sc = st.sc
    navy = navy_of(st)
    counters = sc.counters
    pools: dict[str, dict[str, list[str]]] = {"ships": {}, "subs": {}, "air": {}}  # `group_pool`, all at once
    for u, w in navy.where.items():
        c = counters[u]
        if c.side != side or u in navy.activated or w not in sc.strat_areas:
            continue
        if is_surface(c):
            s = sc.strat_areas[w]
            pools["ships"].setdefault(w if s.kind == "sea" else s.sea, []).append(u)
        elif c.type == "submarine":
            pools["subs"].setdefault(w, []).append(u)
        elif c.is_aircraft:
            pools["air"].setdefault(w, []).append(u)
    surface = enemy_surface(st, side) if pools["air"] else None
    return [order("activate", loc, kind) for kind in GROUP_KINDS for loc in sorted(pools[kind])
            if not activate_problem(st, side, loc, kind, pools[kind][loc], surface)]


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


def take_problem(st: St, unit: str) -> str:
    """Why `unit` may not join the group being formed ('' if it may): units join only from the area it forms
    in, one kind per group, once per turn (6.1)."""
    sc = st.sc
    navy = navy_of(st)
    if unit in navy.pool:
        return ""
    bad = counter_problem(st, unit, navy.player)
    if bad:
        return bad
    c = sc.counters[unit]
    if unit in navy.group:
        return f"{c.name} is already in the group"
    if unit in navy.activated:
        return f"{c.name} has already been activated this turn: an activated unit cannot act again (6.1)"
    kind_ok = {"ships": is_surface(c), "subs": c.type == "submarine", "air": c.is_aircraft}[navy.kind]
    if not kind_ok:
        what = {"named": "named ship", "group": "group of warships"}.get(c.type, c.type)
        return f"{c.name} is a {what}: this group is {KIND_TEXT[navy.kind]} (one kind of unit per activation, 6.1)"
    where = navy.where[unit]
    if where not in sc.strat_areas:
        return f"{c.name} is not on the Strategic Map"
    area = place(st, navy.at) + (" and its harbours" if navy.kind == "ships" else "")
    return (f"{c.name} is at {place(st, where)}: a group forms from one area, here {area} (6.1); "
            f"may still join: {listing(navy.pool)}")


def launch_problem(st: St) -> str:
    return "" if navy_of(st).group else "take at least one unit into the group before it sets off (6.1)"


def legal_form(st: St) -> Sequence[Any]:
    navy = navy_of(st)
    out: list[Any] = [order("take", u) for u in navy.pool]  # `take_problem` finds nothing against exactly these
    if not launch_problem(st):
        out.append(order("launch"))
    return out


def form_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal step in forming the group ('' if it is)."""
    if isinstance(action, Order) and action.verb == "take":
        return take_problem(st, action.arg)
    if isinstance(action, Order) and action.verb == "launch":
        return launch_problem(st)
    return NOT_NOW


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


def enemy_surface(st: St, side: str) -> frozenset[str]:
    """The Strategic Map locations where the enemy of `side` has surface ships."""
    sc = st.sc
    enemy = sc.other(side)
    return frozenset(w for u, w in navy_of(st).where.items()
                     if w in sc.strat_areas and sc.counters[u].side == enemy and is_surface(sc.counters[u]))


def air_targets(st: St, group: Sequence[str], side: str, surface: frozenset[str] | None = None) -> list[Order]:
    """Where an air group may strike (6.6, 6.9): enemy surface ships within range of every aircraft in
    it (a harbour counts in both its areas), or a special bombing mission; a bomber is needed.

    assumption: a group flies together, so its shortest range limits it (digest 6.2).
    """
    return list(_air_targets(st, group, side, surface))


def has_air_target(st: St, group: Sequence[str], side: str, surface: frozenset[str] | None = None) -> bool:
    """Whether the air group has somewhere to strike (found without listing every target)."""
    return next(_air_targets(st, group, side, surface), None) is not None


def _air_targets(st: St, group: Sequence[str], side: str, surface: frozenset[str] | None) -> Iterator[Order]:
    sc = st.sc
    if not any(sc.counters[u].type == "bomber" for u in group):
        return
    if surface is None:
        surface = enemy_surface(st, side)
    for t in sorted(surface):
        if not strike_problem(st, group, side, "fly", t, surface, False):
            yield order("fly", t)
    for h in bombing_targets(st, side):
        if not strike_problem(st, group, side, "bomb", h, surface, False):
            yield order("bomb", h)


def bombing_targets(st: St, side: str) -> list[str]:
    """The harbours `side` may bomb in a special mission (6.9).

    assumption: only while the enemy holds the port's land area, since the mission closes it as an enemy
    supply port and does nothing else (digest 6.9 suggestion)."""
    sc = st.sc
    return list(st.per_control(("bombs", side, 0), lambda: tuple(
        h for h in sc.rules.value("bombing_targets").get(side, []) if st.control.get(sc.strat_areas[h].land) ==
        sc.other(side))))


def dive_problem(st: St, loc: str) -> str:
    """Why the active submarines may not move to `loc` ('' if they may): one area in an action, never into a
    home port (6.2, 6.8)."""
    sc = st.sc
    navy = navy_of(st)
    bad = location_problem(st, loc)
    if bad:
        return bad
    if len(navy.path) > 1:
        return "the submarines have already moved in this action: they move one area (6.2)"
    if loc == navy.at:
        return f"the submarines are already in {place(st, loc)}"
    if loc not in sc.sea_adj[navy.at]:
        return not_next_to(st, loc, navy.at, "submarines")
    if sc.strat_areas[loc].kind == "home_port":
        return f"{place(st, loc)} is a home port: submarines never enter one, nor attack ships there (6.8)"
    return ""


def attack_problem(st: St) -> str:
    """Why the active submarines may not attack where they are ('' if they may, 6.8)."""
    navy = navy_of(st)
    if st.sc.strat_areas[navy.at].kind == "home_port":
        return "submarines cannot attack ships in a home port (6.8)"
    if not enemy_ships_here(st, navy.at, navy.player):
        return f"there are no enemy surface ships at {place(st, navy.at)} to attack (6.8)"
    return ""


def strike_problem(st: St, group: Sequence[str], side: str, verb: str, loc: str,
                   surface: frozenset[str] | None = None, words: bool = True) -> str:
    """Why an air group of `side` may not `fly` to (strike ships at) or `bomb` `loc` ('' if it may): a bomber
    and enemy surface ships within range of every aircraft of the group (6.6), or a special bombing target the
    enemy holds, within range (6.9)."""
    sc = st.sc
    bad = location_problem(st, loc)
    if bad:
        return bad
    if verb == "bomb" and loc not in bombing_targets(st, side):
        targets: dict[str, list[str]] = sc.rules.value("bombing_targets")
        mine = targets.get(side, [])
        if not mine:
            flyers = " and ".join(side_name(st, s) for s in targets) or "nobody"
            return f"only the {flyers} fly special bombing missions (6.9); the {side_name(st, side)} cannot"
        if loc not in mine:
            return (f"{place(st, loc)} is not a special bombing target (6.9); targets: "
                    f"{listing([place(st, t) for t in mine])}")
        land = sc.strat_areas[loc].land
        held = f"the {side_name(st, side)} hold {st.area_label(land)}" if land and st.control.get(land) == side \
            else f"{place(st, loc)} is not a port the enemy holds now"
        return f"{held}: a special bombing mission only closes a port the enemy holds (6.9)"
    if not any(sc.counters[u].type == "bomber" for u in group):
        return f"no bomber in the group: fighters only escort ({'6.9' if verb == 'bomb' else '6.6'})"
    if verb == "fly" and loc not in (enemy_surface(st, side) if surface is None else surface):
        return f"there are no enemy surface ships at {place(st, loc)} to strike (6.6)"
    base = navy_of(st).where[group[0]]
    reach = air_group_range(st, group)
    steps = air_steps(sc, base, loc)
    if steps > reach:
        if not words:
            return "out of range"
        return (f"{place(st, loc)} is {steps} areas from {place(st, base)}, beyond the group's range of {reach} "
                "(6.2, 6.6)")
    return ""


def legal_move(st: St) -> Sequence[Any]:
    navy = navy_of(st)
    halt = order("halt")
    if navy.kind == "ships":
        return [*sail_options(st), halt]
    if navy.kind == "subs":
        out: list[Any] = [order("dive", n) for n in st.sc.sea_adj[navy.at] if not dive_problem(st, n)]
        if not attack_problem(st):
            out.append(order("attack"))
        return [*out, halt]
    return [*air_targets(st, navy.group, navy.player), halt]


MOVE_VERBS = {"ships": ("sail", "halt"), "subs": ("dive", "attack", "halt"), "air": ("fly", "bomb", "halt")}


def move_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal order for the active group now ('' if it is)."""
    navy = navy_of(st)
    if not isinstance(action, Order) or action.verb not in MOVE_VERBS.get(navy.kind, ()):
        return NOT_NOW
    verb = action.verb
    if verb == "halt":
        return ""
    if verb == "sail":
        return sail_problem(st, action.arg)
    if verb == "dive":
        return dive_problem(st, action.arg)
    if verb == "attack":
        return attack_problem(st)
    return strike_problem(st, navy.group, navy.player, verb, action.arg)


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


ROUTES = {
    "stuka": "sa_stuka", "choose": "sa_choose", "form": "sa_form", "move": "sa_move", "evade": "nv_evade",
    "combat": "nv_alloc", "retreat": "nv_retreat", "reply": "nv_reply", "aim": "nv_aim", "done": "sa_next",
    "end": "sa_end", "over": "plan_place",
}


def route(st: St) -> str:
    return ROUTES[navy_of(st).stage]


def stage_is(name: str) -> Any:
    return lambda st: navy_of(st).stage != name


# ----- each decision's "why not", for the flow table: '' when the action is legal -------------------------
def stuka_problem(st: St, action: Action) -> str:
    if isinstance(action, Pass):
        return ""
    if not well_formed(action, "sortie"):
        return NOT_NOW
    return sortie_problem(st, action.arg)


def choose_problem(st: St, action: Action) -> str:
    if isinstance(action, Pass):
        return ""
    if not well_formed(action, "activate"):
        return NOT_NOW
    return activate_problem(st, navy_of(st).player, action.arg, action.what)


def form_step_problem(st: St, action: Action) -> str:
    return form_problem(st, action) if well_formed(action, "take", "launch") else NOT_NOW


def move_step_problem(st: St, action: Action) -> str:
    return move_problem(st, action) if well_formed(action, *MOVE_VERBS[navy_of(st).kind]) else NOT_NOW


def strategic_steps() -> list[Step[St]]:
    """The Strategic Game rows of the flow table (hook `strategic_game`)."""
    phase = "strategic actions"
    return [
        Step("sa_start", phase, on_begin=begin_actions, next=route),
        Step("sa_stuka", phase, actor=stuka_actor, legal=legal_stuka, apply=apply_stuka, problem=stuka_problem,
             end_if=stage_is("stuka"), next=route),
        Step("sa_choose", phase, actor=choose_actor, legal=legal_choose, apply=apply_choose, problem=choose_problem,
             end_if=stage_is("choose"), next=route),
        Step("sa_form", phase, actor=choose_actor, legal=legal_form, apply=apply_form, problem=form_step_problem,
             end_if=stage_is("form"), next=route),
        Step("sa_move", phase, actor=choose_actor, legal=legal_move, apply=apply_move, problem=move_step_problem,
             end_if=stage_is("move"), next=route),
        Step("nv_evade", phase, actor=evade_actor, legal=legal_evade, apply=apply_evade, problem=evade_problem,
             end_if=stage_is("evade"), next=route),
        Step("nv_alloc", phase, actor=alloc_actor, legal=legal_alloc, apply=apply_alloc, end_if=alloc_done,
             problem=alloc_problem,
             next=goto("nv_roll")),
        chance_step("nv_roll", phase, roll_dice, resolve_roll, goto("nv_reroll")),
        chance_step("nv_reroll", phase, reroll_dice, resolve_reroll, goto("nv_bship")),
        chance_step("nv_bship", phase, bship_dice, resolve_bship, route),
        Step("nv_retreat", phase, actor=retreat_actor, legal=legal_retreat, apply=apply_retreat,
             problem=withdraw_step_problem,
             on_begin=begin_retreat_step, end_if=stage_is("retreat"), next=route),
        Step("nv_reply", phase, actor=reply_actor, legal=legal_reply, apply=apply_reply, problem=reply_problem,
             end_if=stage_is("reply"), next=route),
        Step("nv_aim", phase, actor=reply_actor, legal=legal_aim, apply=apply_aim, problem=aim_problem,
             end_if=stage_is("aim"), next=route),
        Step("sa_next", phase, on_begin=next_action, next=route),
        Step("sa_end", phase, on_begin=end_actions, next=route),
        Step("fleet_moves", "strategic", actor=fleet_mover, legal=legal_fleet, apply=apply_fleet,
             problem=fleet_move_problem,
             on_begin=begin_fleet_moves, end_if=lambda st: st.idx >= len(st.sc.sides), next=goto("turn_end")),
    ]
