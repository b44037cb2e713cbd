"""Messages for illegal Strategic Game actions (Firestorm: Norway digest sections 1.3-1.4, 5-6, 7.6-7.7):
name the rule that forbids an order, or a counter's strategic move, and what may be done instead.

Legality itself is decided only by the flow table's options (`strategic`, `naval_combat`); this module
reads the same helpers to explain why an action is not among them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import GROUP_KINDS, Move, Order, Pass
from warroom.rulesets.firestorm.fleet import is_surface
from warroom.rulesets.firestorm.maps import reachable
from warroom.rulesets.firestorm.naval_combat import (
    aim_problem,
    deciding_volley,
    retreat_options,
    retreaters,
    target_name,
)
from warroom.rulesets.firestorm.sea import (
    HARBOUR,
    air_steps,
    airfield_limit,
    enemy_ships_here,
    is_home_port_of_other,
    label,
    land_aircraft,
    navy_of,
)
from warroom.rulesets.firestorm.strategic import (
    activation_options,
    air_group_range,
    fleet_move_options,
    fleet_mover,
    group_pool,
    stuka_options,
    sub_can_act,
)

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St

NAVAL_STEPS = frozenset({"sa_stuka", "sa_choose", "sa_form", "sa_move", "nv_evade", "nv_alloc", "nv_retreat",
                         "nv_reply", "nv_aim", "fleet_moves"})
"""The decision steps of the Strategic Game."""

STEP_FORMS = {
    "sa_stuka": "sortie COUNTER or pass", "sa_choose": "activate LOCATION ships|subs|air or pass",
    "sa_form": "take COUNTER or launch", "nv_evade": "fight or evade", "nv_alloc": "allocate TARGET DICE",
    "nv_retreat": "withdraw LOCATION", "nv_reply": "stand or press", "nv_aim": "aim COUNTER subs|ships",
    "fleet_moves": "move COUNTER LOCATION or pass",
}
MOVE_FORMS = {"ships": "sail LOCATION or halt", "subs": "dive LOCATION, attack or halt",
              "air": "fly LOCATION, bomb HARBOUR or halt"}
MOVE_VERBS = {"ships": ("sail", "halt"), "subs": ("dive", "attack", "halt"), "air": ("fly", "bomb", "halt")}
STEP_VERBS = {"sa_stuka": ("sortie",), "sa_choose": ("activate",), "sa_form": ("take", "launch"),
              "nv_evade": ("fight", "evade"), "nv_alloc": ("allocate",), "nv_retreat": ("withdraw",),
              "nv_reply": ("stand", "press"), "nv_aim": ("aim",)}
VERB_KIND = {"sail": "ships", "dive": "subs", "attack": "subs", "fly": "air", "bomb": "air"}
KIND_TEXT = {"ships": "surface ships", "subs": "submarines", "air": "aircraft", "": "nothing"}
WHEN = {
    "sortie": "Ju-87s are lent to the land maps only before the first Strategic Action of a turn (7.7)",
    "activate": "a group is activated only when the previous action is over (6.1)",
    "take": "no group is being formed: activate one first (activate LOCATION ships|subs|air, 6.1)",
    "launch": "no group is being formed: activate one first (activate LOCATION ships|subs|air, 6.1)",
    "halt": "only a group that has set off can halt",
    "fight": "the Germans choose to fight or evade only when surface combat is joined, before the dice (6.5)",
    "evade": "the Germans choose to fight or evade only when surface combat is joined, before the dice (6.5)",
    "allocate": "no fight is waiting for its dice to be allocated (6.3)",
    "withdraw": "no ships are retreating (6.4)",
    "stand": "only ships attacked by submarines on their way choose to stand or press on (6.8)",
    "press": "only ships attacked by submarines on their way choose to stand or press on (6.8)",
}


def expected_form(st: St) -> str:
    """What the current Strategic Game step expects, e.g. 'sail LOCATION or halt'."""
    if st.step == "sa_move":
        return MOVE_FORMS.get(navy_of(st).kind, "")
    return STEP_FORMS.get(st.step, "")


def place(st: St, loc: str) -> str:
    """A location as read and as typed: 'B3 Møre coast', 'Narvik (narvik_harbour)'."""
    s = st.sc.strat_areas.get(loc)
    return label(st, loc) if s is None or s.is_coded else f"{label(st, loc)} ({loc})"


def side_name(st: St, side: str) -> str:
    return st.sc.side_names.get(side, side)


def listing(items: Sequence[str], most: int = 8) -> str:
    shown = ", ".join(items[:most])
    return shown + (f" ... ({len(items)} in all)" if len(items) > most else "") if items else "none"


def some_legal(st: St) -> str:
    """A few of the legal actions, for messages that cannot be more precise."""
    return listing([a.to_str() for a in st.legal_actions()], 6)


def location_problem(st: St, loc: str) -> str | None:
    """An argument that is not a Strategic Map location (1.2-1.4)."""
    sc = st.sc
    if loc in sc.strat_areas:
        return None
    if loc in sc.areas:
        return f"{loc} ({sc.areas[loc].name}) is a land-map area, not a Strategic Map location"
    return f"unknown Strategic Map location {loc!r}"


def counter_problem(st: St, unit: str, side: str) -> str | None:
    """An argument that is not one of `side`'s Strategic Map counters (5)."""
    sc = st.sc
    c = sc.counters.get(unit)
    if c is None:
        if unit in sc.troops:
            return f"{unit} is a land Firestorm Troop, not a Strategic Map counter"
        own = [u for u, w in navy_of(st).where.items() if sc.counters[u].side == side and w in sc.strat_areas]
        return f"unknown counter {unit!r} (counters are named by id, e.g. {', '.join(own[:3])})"
    if c.side != side:
        return f"{c.name} ({unit}) belongs to the {side_name(st, c.side)}: you command only your own counters"
    return None


def order_problem(st: St, action: Action) -> str:
    """Why a Strategic Game action (an `Order`, a `pass`, or a counter's `Move`) is not legal now."""
    if st.step == "fleet_moves":
        if isinstance(action, Move):
            return fleet_move_problem(st, action)
        return f"counters now make their strategic moves ({STEP_FORMS['fleet_moves']}); legal now: {some_legal(st)}"
    if isinstance(action, Pass):
        return pass_problem(st)
    if isinstance(action, Move):
        return (f"counters make their strategic moves in the Strategic Phase, after the land battles (6.12); "
                f"now: {expected_form(st)}")
    if not isinstance(action, Order):
        return f"this is the Strategic Game ({expected_form(st)}); legal now: {some_legal(st)}"
    named = name_problem(st, action)
    if named:
        return named
    verbs = MOVE_VERBS.get(navy_of(st).kind, ()) if st.step == "sa_move" else STEP_VERBS.get(st.step, ())
    if action.verb not in verbs:
        return verb_problem(st, action)
    check = CHECKS.get(action.verb)
    found = check(st, action) if check is not None else None
    return found or f"not one of the legal orders now; legal now: {some_legal(st)}"


def name_problem(st: St, action: Order) -> str | None:
    """An order naming something that is no counter, or no Strategic Map location, whatever the moment."""
    sc = st.sc
    if action.verb in ("take", "sortie", "allocate") and action.arg not in sc.counters and action.arg != HARBOUR:
        return counter_problem(st, action.arg, st.current_player())
    if action.verb in ("activate", "sail", "dive", "fly", "bomb", "withdraw"):
        return location_problem(st, action.arg)
    return None


def pass_problem(st: St) -> str:
    if st.step == "sa_form":
        return "a group being formed cannot pass: take units (take COUNTER), then launch (6.1)"
    if st.step == "sa_move":
        return "a group that has set off stops with 'halt' (the action is then over)"
    if st.step == "nv_alloc":
        return "every die must be allocated: only submarines may hold their fire (6.3, 6.8)"
    return f"passing is not possible now ({expected_form(st)}); legal now: {some_legal(st)}"


def verb_problem(st: St, action: Order) -> str:
    """An order that belongs to another moment of the Strategic Actions."""
    navy = navy_of(st)
    verb = action.verb
    now = f"now: {expected_form(st)}"
    if verb in ("take", "launch") and navy.group and navy.stage != "form":
        return "the group is formed: units cannot join or leave once it has set off (digest 6.1)"
    if verb in VERB_KIND or verb == "halt":
        if st.step == "sa_move":
            return (f"'{verb}' is an order for {KIND_TEXT[VERB_KIND[verb]]}; this group is {KIND_TEXT[navy.kind]} "
                    f"(one kind of unit per action, 6.1); {now}")
        if st.step == "sa_form":
            return "the group has not set off yet: take units (take COUNTER), then launch (6.1)"
        if navy.kind and navy.combat is not None:
            return f"a fight is under way at {place(st, navy.combat.at)}: the group acts again once it is over; {now}"
        if navy.kind:
            return f"the group cannot move now; {now}"
        return f"no group has set off: activate one first (activate LOCATION ships|subs|air, 6.1); {now}"
    return f"{WHEN.get(verb, f'{verb!r} is not an order for this moment')}; {now}"


# ----- one check per verb: the first rule the order breaks, or None --------------------------------
def check_sortie(st: St, action: Order) -> str | None:
    """Ju-87s on airfields may be lent to the land maps before the actions (7.7, 11.26)."""
    sc = st.sc
    bad = counter_problem(st, action.arg, st.sc.sides[1])
    if bad:
        return bad
    c = sc.counters[action.arg]
    if not c.land_sortie:
        return f"only Ju-87s may fly air support for the land battles (7.7); {c.name} is a {c.type}"
    where = navy_of(st).where[action.arg]
    if where not in sc.strat_areas or sc.strat_areas[where].kind != "airfield":
        free = listing([o.arg for o in stuka_options(st)])
        return f"{c.name} is not at an airfield (7.7); Ju-87s that may go: {free}"
    return None


def check_activate(st: St, action: Order) -> str | None:
    """A group is one kind of un-activated unit from one area (6.1); submarines need somewhere to go or a
    target (6.8); aircraft a bomber and a target in range (6.6, 6.9)."""
    sc = st.sc
    navy = navy_of(st)
    side = navy.player
    loc, kind = action.arg, action.what
    bad = location_problem(st, loc)
    if bad or kind not in GROUP_KINDS:
        return bad or f"unknown group kind {kind!r} (use ships, subs or air)"
    s = sc.strat_areas[loc]
    if kind == "ships" and s.kind != "sea":
        if s.sea:
            return f"ships in {place(st, loc)} activate through its sea area: 'activate {s.sea} ships' (6.1)"
        return f"{place(st, loc)} is not a sea area: ships are activated in a sea area with its harbours (6.1)"
    pool = group_pool(st, loc, kind, side)
    if not pool:
        fresh = st.clone()
        navy_of(fresh).activated = set()
        if group_pool(fresh, loc, kind, side):
            return (f"every one of your {kind} at {place(st, loc)} has already been activated this turn: "
                    "an activated unit cannot act again except to retreat (6.1)")
        where = [o.arg for o in activation_options(st, side) if o.what == kind]
        return f"you have no un-activated {kind} at {place(st, loc)}; yours can act from: {listing(where)}"
    if kind == "subs" and not sub_can_act(st, loc, side):
        return (f"the submarines at {place(st, loc)} have no enemy ships to attack and no area to move to "
                "(home ports are closed to them, 6.2, 6.8)")
    if kind == "air":
        if not any(sc.counters[u].type == "bomber" for u in pool):
            return "an air action needs a bomber: fighters only escort or defend (6.6)"
        return (f"no enemy surface ships or special bombing target are within range of the bombers at "
                f"{place(st, loc)} (6.2, 6.6, 6.9)")
    return None


def check_take(st: St, action: Order) -> str | None:
    """Units join a group only from the area it forms in, one kind per group, once per turn (6.1)."""
    sc = st.sc
    navy = navy_of(st)
    unit = action.arg
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
        return f"{c.name} is a {c.type}: this group is {KIND_TEXT[navy.kind]} (one kind of unit per activation, 6.1)"
    where = navy.where[unit]
    if where not in sc.strat_areas:
        return f"{c.name} is not on the Strategic Map"
    area = place(st, navy.at) + (" and its harbours" if navy.kind == "ships" else "")
    return (f"{c.name} is at {place(st, where)}: a group forms from one area, here {area} (6.1); "
            f"may still join: {listing(navy.pool)}")


def check_launch(st: St, action: Order) -> str | None:
    return None if navy_of(st).group else "take at least one unit into the group before it sets off (6.1)"


def not_next_to(st: St, loc: str, here: str, who: str) -> str:
    sc = st.sc
    s = sc.strat_areas[loc]
    if s.kind in ("land", "airfield"):
        return f"{place(st, loc)} is land: {who} move only by sea and into harbours (1.2)"
    if s.kind in ("harbour", "home_port") and s.sea != here:
        return f"{place(st, loc)} opens only on sea area {s.sea}: {who} enter it from there (1.3)"
    return (f"{place(st, loc)} is not next to {place(st, here)}; from there {who} may go to: "
            f"{listing(list(sc.sea_adj[here]))}")


def check_sail(st: St, action: Order) -> str | None:
    """Ships move area by area, never into the enemy's home ports, never back to a place already visited
    in the action; a group that evaded may not fight again (1.3, 6.2, 6.5)."""
    sc = st.sc
    navy = navy_of(st)
    loc = action.arg
    if loc == navy.at:
        return f"the group is already in {place(st, loc)}"
    if loc not in sc.sea_adj[navy.at]:
        return not_next_to(st, loc, navy.at, "ships")
    s = sc.strat_areas[loc]
    if is_home_port_of_other(s, navy.player):
        return f"{place(st, loc)} is a home port of the {side_name(st, s.side)}: only their ships may enter it (1.3)"
    if loc in navy.path:
        return f"the group has already been in {place(st, loc)} during this action: a place is entered once"
    if navy.no_fight and enemy_ships_here(st, loc, navy.player):
        return (f"enemy ships are in {place(st, loc)}: after a voluntary retreat the group may move on but "
                "not enter combat again (6.5)")
    return None


def check_dive(st: St, action: Order) -> str | None:
    """Submarines move one area in an action and never enter home ports (6.2, 6.8)."""
    sc = st.sc
    navy = navy_of(st)
    loc = action.arg
    if len(navy.path) > 1:
        return "the submarines have already moved in this action: they move one area (6.2)"
    if loc not in sc.sea_adj[navy.at]:
        return not_next_to(st, loc, navy.at, "submarines")
    if sc.strat_areas[loc].kind == "home_port":
        return f"{place(st, loc)} is a home port: submarines never enter one, nor attack ships there (6.8)"
    return None


def check_attack(st: St, action: Order) -> str | None:
    navy = navy_of(st)
    if st.sc.strat_areas[navy.at].kind == "home_port":
        return "submarines cannot attack ships in a home port (6.8)"
    if not enemy_ships_here(st, navy.at, navy.player):
        return f"there are no enemy surface ships at {place(st, navy.at)} to attack (6.8)"
    return None


def range_problem(st: St, loc: str) -> str | None:
    """Aircraft fly to targets within the range of every aircraft of the group (6.2, 6.6)."""
    navy = navy_of(st)
    rng = air_group_range(st, navy.group)
    steps = air_steps(st.sc, navy.at, loc)
    if steps > rng:
        return (f"{place(st, loc)} is {steps} areas from {place(st, navy.at)}, beyond the group's range of "
                f"{rng} (6.2, 6.6)")
    return None


def check_fly(st: St, action: Order) -> str | None:
    """An air strike needs a bomber and enemy surface ships within range (6.6)."""
    sc = st.sc
    navy = navy_of(st)
    loc = action.arg
    if not any(sc.counters[u].type == "bomber" for u in navy.group):
        return "no bomber in the group: fighters only escort (6.6)"
    if not navy.surface_at(sc, loc, sc.other(navy.player)):
        return f"there are no enemy surface ships at {place(st, loc)} to strike (6.6)"
    return range_problem(st, loc)


def check_bomb(st: St, action: Order) -> str | None:
    """Special bombing missions: German bombers against the listed harbours, within range (6.9)."""
    sc = st.sc
    navy = navy_of(st)
    loc = action.arg
    targets: dict[str, list[str]] = sc.rules.value("bombing_targets")
    mine = targets.get(navy.player, [])
    if not mine:
        flyers = " and ".join(side_name(st, s) for s in targets) or "nobody"
        return f"only the {flyers} fly special bombing missions (6.9); the {side_name(st, navy.player)} cannot"
    if loc not in mine:
        return (f"{place(st, loc)} is not a special bombing target (6.9); targets: "
                f"{listing([place(st, t) for t in mine])}")
    if not any(sc.counters[u].type == "bomber" for u in navy.group):
        return "no bomber in the group: fighters only escort (6.9)"
    land = sc.strat_areas[loc].land
    if land and st.control[land] == navy.player:
        return (f"the {side_name(st, navy.player)} hold {st.area_label(land)}: a special bombing mission only closes "
                f"a port the enemy holds (6.9)")
    return range_problem(st, loc)


def check_allocate(st: St, action: Order) -> str | None:
    """Each side splits its dice over the enemy units in the fight, declared before the roll (6.3)."""
    combat = navy_of(st).combat
    v = deciding_volley(combat) if combat is not None else None
    if v is None:
        return None
    target = action.arg
    names = listing([f"{t} ({target_name(st, t)})" for t in v.targets if t not in v.alloc])
    if target not in v.targets:
        if target not in st.sc.counters and target != HARBOUR:
            return f"unknown counter {target!r}; this volley's targets: {names}"
        return f"{target_name(st, target)} is not a target in this fight (6.3); this volley's targets: {names}"
    if target in v.alloc:
        return f"{target_name(st, target)} already has {v.alloc[target]} dice: each target is allocated once"
    if action.n > v.left():
        return f"only {v.left()} of the volley's {v.dice} dice are left to allocate, not {action.n}"
    return None


def check_withdraw(st: St, action: Order) -> str | None:
    """A retreat goes to an adjacent area, never back where it has been, never into the enemy's home
    ports (1.3, 6.4)."""
    sc = st.sc
    navy = navy_of(st)
    loc = action.arg
    group = retreaters(st)
    if not group:
        return None
    here = navy.where[group[0]]
    if loc not in sc.sea_adj[here]:
        return not_next_to(st, loc, here, "retreating ships")
    s = sc.strat_areas[loc]
    if is_home_port_of_other(s, navy.retreat_side):
        return f"{place(st, loc)} is a home port of the {side_name(st, s.side)}: a retreat may not enter it (1.3, 6.4)"
    if loc in navy.retreat_path:
        return (f"the retreating ships have already been in {place(st, loc)}: a retreat never goes back (6.4); "
                f"open: {listing([o.arg for o in retreat_options(st)])}")
    return None


def check_aim(st: St, action: Order) -> str | None:
    """Mixed defence (6.8): one of the entering group's counters, in turn, aims at the submarines or the ships."""
    return counter_problem(st, action.arg, st.current_player()) or aim_problem(st, action)


CHECKS = {"aim": check_aim, "sortie": check_sortie, "activate": check_activate, "take": check_take,
          "launch": check_launch, "sail": check_sail, "dive": check_dive, "attack": check_attack, "fly": check_fly,
          "bomb": check_bomb, "allocate": check_allocate, "withdraw": check_withdraw}


def fleet_move_problem(st: St, action: Move) -> str:
    """Strategic moves of counters (6.12): ships through seas free of enemy surface ships, submarines up to
    two areas, land-based aircraft to a usable friendly airfield with room (1.4, 7.6); once each."""
    sc = st.sc
    navy = navy_of(st)
    side = fleet_mover(st)
    unit, to = action.unit, action.to
    if unit in sc.troops:
        return f"{unit} is a land Firestorm Troop: the land strategic moves are over; counters move now (6.12)"
    bad = counter_problem(st, unit, side)
    if bad:
        return bad
    c = sc.counters[unit]
    where = navy.where[unit]
    if unit in navy.moved:
        return f"{c.name} has already made its strategic move this turn (6.12)"
    if where not in sc.strat_areas:
        return f"{c.name} is not on the Strategic Map ({where})"
    if c.carrier:
        return f"{c.name} stays aboard its carrier: carrier aircraft move with it (5.3, 6.12)"
    bad = location_problem(st, to)
    if bad:
        return bad
    if to == where:
        return f"{c.name} is already at {place(st, to)}"
    dest = sc.strat_areas[to]
    if c.is_aircraft:
        return airfield_problem(st, to, side)
    if dest.kind in ("land", "airfield"):
        return f"{place(st, to)} is land: ships and submarines move only by sea (1.2)"
    if is_home_port_of_other(dest, side):
        return f"{place(st, to)} is a home port of the {side_name(st, dest.side)}: only their ships may enter it (1.3)"
    if c.type == "submarine":
        if dest.kind == "home_port":
            return f"{place(st, to)} is a home port: submarines never enter one (6.8)"
        most = sc.rules.value("sub_strategic_move")
        return f"{place(st, to)} is more than {most} areas away: submarines move up to {most} areas (6.12)"
    if enemy_ships_here(st, to, side):
        return f"enemy surface ships are at {place(st, to)}: ships never move into or through them (6.12)"
    if to in reachable(where, lambda a: list(sc.sea_adj[a])):
        return f"every sea route from {place(st, where)} to {place(st, to)} passes enemy surface ships (6.12)"
    return f"{place(st, to)} cannot be reached by sea from {place(st, where)}"


def airfield_problem(st: St, to: str, side: str) -> str:
    """Why an aircraft may not re-base to `to`: not an airfield, not usable by `side` now, or full."""
    sc = st.sc
    s = sc.strat_areas[to]
    if s.kind != "airfield":
        return f"{place(st, to)} is not an airfield: aircraft re-base only to airfields (6.12)"
    limit = airfield_limit(st, to, side)
    if limit == 0:
        if s.side != side:
            return f"{place(st, to)} is an airfield of the {side_name(st, s.side)} (1.4)"
        if st.turn < s.from_turn:
            return f"{place(st, to)} may be used from turn {s.from_turn} (1.4, 7.6)"
        if s.land and st.control[s.land] != side:
            return f"{place(st, to)} is unusable: its land area {st.area_label(s.land)} is not held by your side (7.6)"
        return f"{place(st, to)} is not usable by your side now (Bodø needs all of the SCN map with Namsos, 7.6)"
    here = sum(1 for u in land_aircraft(st, side) if navy_of(st).where[u] == to)
    if limit is not None and here >= limit:
        return f"{place(st, to)} already holds its limit of {limit} aircraft (1.4, 7.6)"
    options = sorted({m.to for m in fleet_move_options(st, side) if sc.counters[m.unit].is_aircraft})
    return f"not a legal re-basing; airfields open to your aircraft: {listing(options)}"
