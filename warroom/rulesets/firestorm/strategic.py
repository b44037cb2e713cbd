"""The Strategic Game (Firestorm: Norway digest section 6): Strategic Actions on the naval/air map before
the land battles of each turn, the strategic moves of counters in the Strategic Phase, conditional
Allied landings and airfield limits.

The rows are added to the shared flow table by `strategic_steps()` (hook `strategic_game`). One
action is: activate a group (`activate LOC ships|subs|air`), form it (`take COUNTER` ... `launch`),
then act with it (`sail`, `dive`/`attack`, `fly`/`bomb`) until it stops. Every fight runs through the
same pipeline: each side splits its dice over declared targets (`allocate TARGET N`), all dice are
rolled at once, then misses that may be re-rolled and battleships' single hits are re-rolled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from warroom.core.flow import Step, goto
from warroom.rulesets.firestorm.actions import PASS, Move, Order, Pass
from warroom.rulesets.firestorm.counters import CounterDef
from warroom.rulesets.firestorm.maps import StratAreaDef, reachable
from warroom.rulesets.firestorm.model import Arrival, FirestormScenario
from warroom.rulesets.firestorm.naval import HIT, battleship_sunk, deal, half_up, interception_split, tally
from warroom.rulesets.firestorm.norway import pay
from warroom.rulesets.firestorm.navy import NEVER, SORTIE, Combat, NavalState, Volley, is_surface, sea_control
from warroom.rulesets.firestorm.state import GONE, OFFMAP, WITHDRAWN
from warroom.rulesets.firestorm.steps import chance_step

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St

HARBOUR = "@harbour"
"""The target of a special bombing mission: the port itself (6.9)."""

_ORDERS: dict[tuple[str, str, str, int], Order] = {}


def order(verb: str, arg: str = "", what: str = "", n: int = 0) -> Order:
    """An interned `Order` (bots ask for the same options many times)."""
    key = (verb, arg, what, n)
    got = _ORDERS.get(key)
    if got is None:
        got = _ORDERS[key] = Order(verb, arg, what, n)
    return got


def navy_of(st: St) -> NavalState:
    navy = st.navy
    assert navy is not None, "this campaign has no Strategic Game"
    return navy


# ----- geometry of the Strategic Map ------------------------------------------------------------------
def coded(sc: FirestormScenario, loc: str) -> tuple[str, ...]:
    """The coded areas a location lies in: itself, or a harbour's land region and sea area (1.7 hint 6)."""
    s = sc.strat_areas[loc]
    if s.is_coded:
        return (loc,)
    return tuple(p for p in (s.region, s.sea) if p)


_DIST: dict[tuple[int, str], tuple[FirestormScenario, dict[str, dict[str, int]]]] = {}


def distances(sc: FirestormScenario, by: str = "air") -> dict[str, dict[str, int]]:
    """Steps between Strategic Map locations: `air` over the coded areas for aircraft range (areas
    entered; the start does not count, 6.2), `sea` over the ship routes (sea areas and harbours)."""
    key = (id(sc), by)
    got = _DIST.get(key)
    if got is not None and got[0] is sc:
        return got[1]
    adj = sc.air_adj if by == "air" else sc.sea_adj
    table: dict[str, dict[str, int]] = {}
    for start in adj:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for here in frontier:
                for n in adj[here]:
                    if n not in dist:
                        dist[n] = dist[here] + 1
                        nxt.append(n)
            frontier = nxt
        table[start] = dist
    _DIST[key] = (sc, table)
    return table


def air_steps(sc: FirestormScenario, base: str, target: str) -> int:
    """Fewest areas an aircraft enters flying from `base` to `target`."""
    table = distances(sc)
    return min(table[a].get(b, 99) for a in coded(sc, base) for b in coded(sc, target))


def counter(st: St, unit: str) -> CounterDef:
    return st.sc.counters[unit]


def side_label(st: St, side: str) -> str:
    return st.sc.side_names[side]


def label(st: St, loc: str) -> str:
    s = st.sc.strat_areas.get(loc)
    if s is None:
        return loc
    return f"{s.id} {s.name}" if s.is_coded and s.name else s.name or s.id


def names(st: St, units: Sequence[str]) -> str:
    return ", ".join(st.sc.counters[u].name for u in units) if units else "nothing"


def is_home_port_of_other(s: StratAreaDef, side: str) -> bool:
    return s.kind == "home_port" and s.side != side


# ----- moving and losing counters -----------------------------------------------------------------------
def relocate(st: St, unit: str, to: str) -> None:
    """Move a counter; a carrier takes the aircraft aboard with it (5.3)."""
    navy = navy_of(st)
    navy.where[unit] = to
    if counter(st, unit).type == "carrier":
        for c in st.sc.counters.values():
            if c.carrier == unit and navy.in_play(c.id):
                navy.where[c.id] = to


def lose(st: St, unit: str) -> None:
    """A destroyed counter is gone for good and the enemy scores its VP (6.13, 9.1); a carrier's
    aircraft are lost with it (5.3). In turn 4 each Allied surface ship sunk scores extra (3.5)."""
    navy = navy_of(st)
    was = navy.where[unit]
    if was in (GONE, NEVER):
        return
    c = counter(st, unit)
    navy.where[unit] = GONE
    enemy = st.sc.other(c.side)
    st.unit_vp[enemy] += c.vp
    st.note(f"{c.name} is destroyed: {side_label(st, enemy)} +{c.vp} VP")
    extra = st.sc.turn(st.turn).sunk_vp
    if extra and c.side == st.sc.sides[0] and is_surface(c):
        pay(st, f"sunk:{unit}", enemy, extra, f"{c.name} sunk in turn {st.turn}")
    if c.type == "carrier":
        for a in st.sc.counters.values():
            if a.carrier == unit and navy.in_play(a.id):
                lose(st, a.id)
    naval_infantry_check(st, unit, was)


def naval_infantry_check(st: St, unit: str, was: str) -> None:
    """Turn 1: if the German Warship Group is destroyed in Narvik harbour, Marine Regiment Berger may be
    placed in a German area of the Narvik map (3.2); `naval_infantry` in the scenario's values."""
    rule = st.sc.rules.value("naval_infantry")
    if not rule or unit != rule.get("counter") or st.turn != int(rule.get("turn", 1)) or was != rule.get("harbour"):
        return
    st.flags["naval_infantry"] = True
    st.note("The Warship Group was destroyed in Narvik harbour: its sailors join the garrison as naval infantry")


# ----- turn set-up: actions, Stuka sorties ----------------------------------------------------------------
def begin_actions(st: St) -> None:
    """Order One (6.0-6.1): every unit un-activated; the turn's action count and first side."""
    navy = navy_of(st)
    t = st.sc.turn(st.turn)
    for unit, base in list(navy.sortie_from.items()):  # Stukas lent last turn come home (assumption 11.26)
        if navy.where[unit] == SORTIE:
            navy.where[unit] = base if airfield_usable(st, base, st.sc.counters[unit].side) else home(st, unit)
    navy.sortie_from = {}
    navy.activated = set()
    navy.zones = {}
    navy.bombed = set()
    navy.landed = {}
    navy.actions_left = t.actions
    navy.player = t.first
    navy.stage = "stuka"
    clear_group(navy)
    st.note(f"--- Strategic Actions: {t.actions} actions, {side_label(st, t.first)} first ---")
    if not stuka_options(st):
        navy.stage = "choose" if navy.actions_left else "end"


def clear_group(navy: NavalState) -> None:
    navy.kind = navy.at = navy.base = ""
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


def apply_stuka(st: St, action: Any) -> None:
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


# ----- choosing and forming a group ---------------------------------------------------------------------------
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
        elif c.is_aircraft and c.type == "bomber" and air_targets(st, [u], side):
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


def apply_choose(st: St, action: Any) -> None:
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


def apply_form(st: St, action: Any) -> None:
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
    else:
        navy.base = navy.at
        navy.stage = "move"


# ----- acting: ships sail, submarines dive and attack, aircraft fly -------------------------------------------
def alive(st: St) -> list[str]:
    navy = navy_of(st)
    return [u for u in navy.group if navy.where[u] == navy.at]


def enemy_ships_here(st: St, loc: str, side: str) -> list[str]:
    return navy_of(st).surface_at(st.sc, loc, st.sc.other(side))


def lurking_subs(st: St, loc: str, side: str) -> list[str]:
    """Un-activated enemy submarines that may attack ships of `side` at `loc` (not in home ports, 6.8)."""
    sc = st.sc
    if sc.strat_areas[loc].kind == "home_port":
        return []
    navy = navy_of(st)
    enemy = sc.other(side)
    return [u for u in navy.at_loc(sc, loc, enemy) if sc.counters[u].type == "submarine" and u not in navy.activated]


def sail_options(st: St) -> list[Order]:
    navy = navy_of(st)
    sc = st.sc
    side = navy.player
    out = []
    for n in sc.sea_adj[navy.at]:
        if n in navy.path or is_home_port_of_other(sc.strat_areas[n], side):
            continue
        if navy.no_fight and enemy_ships_here(st, n, side):
            continue
        out.append(order("sail", n))
    return out


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
    bombing = sc.rules.value("bombing_targets")
    if side in bombing:
        out += [order("bomb", h) for h in bombing[side] if air_steps(sc, base, h) <= rng]
    return out


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


def apply_move(st: St, action: Any) -> None:
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


def arrive(st: St) -> None:
    """Ships arriving somewhere (or activated there): lurking submarines strike first (6.8), then enemy
    surface ships force a stop and a fight (6.2)."""
    navy = navy_of(st)
    subs = lurking_subs(st, navy.at, navy.player)
    if subs and alive(st):
        start_sub_attack(st, subs, alive(st), reactive=True)
        return
    after_subs(st)


def after_subs(st: St) -> None:
    navy = navy_of(st)
    if not alive(st):
        navy.stage = "done"
    elif enemy_ships_here(st, navy.at, navy.player) and not navy.no_fight:
        start_surface(st)
    else:
        navy.stage = "move"


# ----- the dice pipeline -------------------------------------------------------------------------------------
def open_combat(st: St, combat: Combat) -> None:
    navy = navy_of(st)
    navy.combat = combat
    navy.stage = "combat"
    settle_volleys(combat)


def settle_volleys(combat: Combat) -> None:
    """Allocate what needs no decision: a volley with no target fires nothing, and the last target of a
    volley takes all its dice left."""
    for v in combat.volleys:
        if not v.targets:
            v.dice = 0
            v.alloc = {}
            continue
        open_targets = [t for t in v.targets if t not in v.alloc]
        if v.left() > 0 and not v.may_hold and len(open_targets) == 1:
            v.alloc[open_targets[0]] = v.left()
        elif v.left() > 0 and v.may_hold and not open_targets:
            v.dice = sum(v.alloc.values())


def deciding_volley(combat: Combat) -> Volley | None:
    for v in combat.volleys:
        if v.left() > 0:
            return v
    return None


def alloc_actor(st: St) -> str:
    combat = navy_of(st).combat
    assert combat is not None
    v = deciding_volley(combat)
    return v.side if v is not None else ""


def legal_alloc(st: St) -> Sequence[Any]:
    combat = navy_of(st).combat
    assert combat is not None
    v = deciding_volley(combat)
    if v is None:
        return ()
    left = v.left()
    out: list[Any] = [order("allocate", t, n=n) for t in v.targets if t not in v.alloc for n in range(1, left + 1)]
    if v.may_hold:
        out.append(PASS)
    return out


def apply_alloc(st: St, action: Any) -> None:
    combat = navy_of(st).combat
    assert combat is not None
    v = deciding_volley(combat)
    assert v is not None
    if isinstance(action, Pass):
        v.dice = sum(v.alloc.values())
    else:
        assert isinstance(action, Order)
        v.alloc[action.arg] = action.n
    settle_volleys(combat)


def alloc_done(st: St) -> bool:
    combat = navy_of(st).combat
    return combat is None or deciding_volley(combat) is None


def roll_dice(st: St) -> int:
    combat = navy_of(st).combat
    assert combat is not None
    return sum(v.dice for v in combat.volleys)


def target_name(st: St, target: str) -> str:
    if target == HARBOUR:
        combat = navy_of(st).combat
        return f"{st.sc.strat_areas[combat.at].name} harbour" if combat else "the harbour"
    c = st.sc.counters.get(target)
    return c.name if c is not None else target


def resolve_roll(st: St, values: tuple[int, ...]) -> None:
    """All dice at once (simultaneous fire, 6.3); then which misses may be re-rolled."""
    combat = navy_of(st).combat
    assert combat is not None
    pos = 0
    combat.hits = {}
    combat.misses = []
    for i, v in enumerate(combat.volleys):
        order_ = deal(list(v.alloc.items()))
        faces = values[pos:pos + len(order_)]
        pos += len(order_)
        combat.faces.append(tuple(faces))
        for target, n in tally(order_, faces).items():
            combat.hits[target] = combat.hits.get(target, 0) + n
        for j, (target, face) in enumerate(zip(order_, faces, strict=True)):
            if j < v.reroll and face != HIT:
                combat.misses.append((i, target))
        if order_:
            st.note(f"{v.label}: " + "; ".join(
                f"{target_name(st, t)} " + " ".join(f"[{f}]" for f, tt in zip(faces, order_, strict=True) if tt == t)
                for t in v.alloc))


def reroll_dice(st: St) -> int:
    combat = navy_of(st).combat
    assert combat is not None
    return len(combat.misses)


def resolve_reroll(st: St, values: tuple[int, ...]) -> None:
    """Underlined bombers against ships, and every bomb on a harbour, re-roll each miss once (5.1, 6.9)."""
    combat = navy_of(st).combat
    assert combat is not None
    if values:
        st.note("Misses re-rolled: " + " ".join(f"[{v}]" for v in values))
    for (_, target), face in zip(combat.misses, values, strict=True):
        if face == HIT:
            combat.hits[target] = combat.hits.get(target, 0) + 1
    combat.misses = []
    combat.pending = [t for t, n in combat.hits.items() if n == 1 and t in st.sc.counters
                      and st.sc.counters[t].type == "battleship"]


def bship_dice(st: St) -> int:
    combat = navy_of(st).combat
    assert combat is not None
    return len(combat.pending)


def resolve_bship(st: St, values: tuple[int, ...]) -> None:
    """A battleship's single hit is re-rolled; only a second six sinks it (5.1, EX-9)."""
    combat = navy_of(st).combat
    assert combat is not None
    rerolls = dict(zip(combat.pending, values, strict=True))
    sunk = []
    for target, n in combat.hits.items():
        if target == HARBOUR:
            continue
        c = st.sc.counters[target]
        if c.type == "battleship":
            if target in rerolls:
                st.note(f"{c.name} re-rolls its single hit: [{rerolls[target]}]")
            if battleship_sunk(n, rerolls.get(target)):
                sunk.append(target)
        elif n:
            sunk.append(target)
    combat.pending = []
    for target in sunk:
        lose(st, target)
    if combat.hits.get(HARBOUR):
        navy_of(st).bombed.add(combat.at)
        st.note(f"{st.sc.strat_areas[combat.at].name} is hit: closed as an Allied supply port this turn")
    finish_combat(st)


# ----- surface combat, retreat and voluntary retreat -------------------------------------------------------------
def cv(st: St, units: Sequence[str]) -> int:
    return sum(st.sc.counters[u].cv for u in units)


def harbour_dice(st: St, loc: str) -> int:
    s = st.sc.strat_areas[loc]
    return s.defence if s.kind == "harbour" else 0


def start_surface(st: St) -> None:
    """Surface combat (6.3) when the active group meets enemy surface ships; the Germans may first
    declare a voluntary retreat (6.5)."""
    navy = navy_of(st)
    evader = st.sc.rules.value("evade_side")
    st.note(f"Surface combat at {label(st, navy.at)}")
    if evader:
        navy.stage = "evade"
        return
    surface_volleys(st, evade=False)


def evade_actor(st: St) -> str:
    return str(st.sc.rules.value("evade_side"))


def legal_evade(st: St) -> Sequence[Any]:
    return [order("fight"), order("evade")]


def apply_evade(st: St, action: Any) -> None:
    assert isinstance(action, Order)
    surface_volleys(st, evade=action.verb == "evade")


def surface_volleys(st: St, evade: bool) -> None:
    navy = navy_of(st)
    sc = st.sc
    active = navy.player
    passive = sc.other(active)
    mine = alive(st)
    theirs = navy.surface_at(sc, navy.at, passive)
    combat = Combat("surface", navy.at, active, evade=evade, attackers=tuple(mine), defenders=tuple(theirs))
    if evade:
        evader = str(sc.rules.value("evade_side"))
        other = sc.other(evader)
        shooters = mine if other == active else theirs
        targets = theirs if other == active else mine
        st.note(f"The {side_label(st, evader)} declare a voluntary retreat: no dice for them, "
                f"{side_label(st, other)} fire half their dice")
        combat.volleys = [Volley(other, half_up(cv(st, shooters)), tuple(targets), f"{side_label(st, other)} fire")]
    else:
        combat.volleys = [
            Volley(active, cv(st, mine), tuple(theirs), f"{side_label(st, active)} fire"),
            Volley(passive, cv(st, theirs) + harbour_dice(st, navy.at), tuple(mine),
                   f"{side_label(st, passive)} fire"),
        ]
    open_combat(st, combat)


def finish_combat(st: St) -> None:
    """After the dice: what the fight leads to (retreat, submarine reply, or the end of the action)."""
    navy = navy_of(st)
    combat = navy.combat
    assert combat is not None
    kind = combat.kind
    if kind == "surface":
        after_surface(st, combat)
    elif kind == "retreat_fire":
        navy.combat = None
        if retreaters(st):
            navy.stage = "retreat"
        else:
            end_retreat(st)
    elif kind == "sub":
        after_sub_attack(st, combat)
    elif kind == "reply":
        navy.combat = None
        navy.stage = "move" if navy.return_to == "move" and alive(st) else "done"
        if navy.stage == "move":
            after_subs(st)
    else:  # air strikes and bombing: the aircraft fly home, ships stay (6.6)
        navy.combat = None
        navy.stage = "done"


def after_surface(st: St, combat: Combat) -> None:
    navy = navy_of(st)
    sc = st.sc
    active = combat.active
    passive = sc.other(active)
    mine = alive(st)
    theirs = navy.surface_at(sc, combat.at, passive)
    navy.combat = None
    if combat.evade:
        evader = str(sc.rules.value("evade_side"))
        group = mine if evader == active else theirs
        begin_retreat(st, evader, group, "move" if evader == active else "done")
        if evader == active:
            navy.no_fight = True
        return
    mine_cv, theirs_cv = cv(st, mine), cv(st, theirs)
    st.note(f"Surviving combat value: {side_label(st, active)} {mine_cv}, {side_label(st, passive)} {theirs_cv}")
    if not mine_cv or not theirs_cv:
        navy.stage = "done"
    elif mine_cv <= theirs_cv:  # assumption 11.7: a tie retreats the active group
        begin_retreat(st, active, mine, "done")
    else:
        begin_retreat(st, passive, theirs, "done")


def begin_retreat(st: St, side: str, units: Sequence[str], then: str) -> None:
    """The losing side's surviving ships leave the area (6.4). A passive group that retreats is not marked
    activated (assumption 11.36)."""
    navy = navy_of(st)
    navy.retreating = list(units)
    navy.retreat_side = side
    navy.return_to = then
    navy.stage = "retreat" if units else then
    if units:
        st.note(f"{side_label(st, side)} must retreat: {names(st, units)}")
        navy.retreat_path = [navy.where[units[0]]]


def retreaters(st: St) -> list[str]:
    navy = navy_of(st)
    return [u for u in navy.retreating if navy.where[u] not in (GONE,)]


def retreat_options(st: St) -> list[Order]:
    navy = navy_of(st)
    sc = st.sc
    here = navy.where[retreaters(st)[0]]
    return [order("withdraw", n) for n in sc.sea_adj[here]
            if n not in navy.retreat_path and not is_home_port_of_other(sc.strat_areas[n], navy.retreat_side)]


def retreat_actor(st: St) -> str:
    return navy_of(st).retreat_side


def legal_retreat(st: St) -> Sequence[Any]:
    return retreat_options(st)


def begin_retreat_step(st: St) -> None:
    """A group with nowhere left to go is lost. assumption: a retreat may not re-enter an area it has
    passed through, so it always ends (the digest does not limit it)."""
    navy = navy_of(st)
    if navy.stage == "retreat" and retreaters(st) and not retreat_options(st):
        st.note(f"{names(st, retreaters(st))} have nowhere to retreat and are lost")
        for u in retreaters(st):
            lose(st, u)
        end_retreat(st)


def apply_retreat(st: St, action: Any) -> None:
    navy = navy_of(st)
    sc = st.sc
    assert isinstance(action, Order)
    group = retreaters(st)
    for u in group:
        relocate(st, u, action.arg)
    navy.retreat_path.append(action.arg)
    if navy.retreat_side == navy.player:
        navy.at = action.arg
        navy.path.append(action.arg)
    st.note(f"{names(st, group)} retreat to {label(st, action.arg)}")
    enemy = sc.other(navy.retreat_side)
    blockers = navy.surface_at(sc, action.arg, enemy)
    if blockers:  # running past enemy ships costs half their fire, and the retreat goes on (6.4)
        combat = Combat("retreat_fire", action.arg, navy.player, attackers=tuple(blockers), defenders=tuple(group))
        combat.volleys = [Volley(enemy, half_up(cv(st, blockers)), tuple(group),
                                 f"{side_label(st, enemy)} fire at the retreating ships")]
        open_combat(st, combat)
        return
    end_retreat(st)


def end_retreat(st: St) -> None:
    navy = navy_of(st)
    then = navy.return_to
    navy.retreating = []
    navy.retreat_side = ""
    navy.retreat_path = []
    navy.return_to = ""
    navy.reply_subs = ()
    if then == "move" and alive(st):
        navy.stage = "move"
    else:
        navy.stage = "done"


# ----- submarines ------------------------------------------------------------------------------------------------
def start_sub_attack(st: St, subs: Sequence[str], ships: Sequence[str], reactive: bool) -> None:
    """Submarines fire one die each at ships they choose; a six sinks (6.8). Reactive attackers may hold fire."""
    navy = navy_of(st)
    side = st.sc.counters[subs[0]].side
    combat = Combat("sub", navy.at, navy.player, attackers=tuple(subs), defenders=tuple(ships))
    combat.volleys = [Volley(side, len(subs), tuple(ships), f"{side_label(st, side)} submarines fire",
                             may_hold=True)]
    navy.return_to = "react" if reactive else "active"
    open_combat(st, combat)


def after_sub_attack(st: St, combat: Combat) -> None:
    """Every surviving ship counter of the group answers with one die (not its CV), half if the group sails
    on (6.8, EX-7). Ships sunk do not reply. With enemy surface ships also present the group fights them
    instead (assumption: the mixed-defence choice of 6.8 is made as all counters against the ships)."""
    navy = navy_of(st)
    fired = combat.volleys[0].dice
    reactive = navy.return_to == "react"
    ship_side = st.sc.other(combat.volleys[0].side)
    navy.combat = None
    targets = alive(st) if reactive else navy.surface_at(st.sc, combat.at, ship_side)
    if not fired or not targets:
        navy.return_to = ""
        if reactive:
            after_subs(st)
        else:
            navy.stage = "done"
        return
    navy.reply_subs = combat.attackers[:fired]  # one die each: the first `fired` submarines fired
    if reactive and enemy_ships_here(st, navy.at, navy.player):
        navy.return_to = ""
        after_subs(st)
        return
    if reactive and sail_options(st):
        navy.stage = "reply"
        return
    start_reply(st, ship_side, targets, press=False, then="done")


def reply_actor(st: St) -> str:
    return navy_of(st).player


def legal_reply(st: St) -> Sequence[Any]:
    return [order("stand"), order("press")]


def apply_reply(st: St, action: Any) -> None:
    assert isinstance(action, Order)
    press = action.verb == "press"
    start_reply(st, navy_of(st).player, alive(st), press=press, then="move" if press else "done")


def start_reply(st: St, side: str, ships: Sequence[str], press: bool, then: str) -> None:
    navy = navy_of(st)
    subs = navy.reply_subs
    dice = half_up(len(ships)) if press else len(ships)
    combat = Combat("reply", navy.at, navy.player, attackers=tuple(ships), defenders=subs)
    combat.volleys = [Volley(side, dice, subs, f"{side_label(st, side)} reply to the submarines")]
    navy.return_to = then
    open_combat(st, combat)


# ----- air strikes -----------------------------------------------------------------------------------------------
def defending_aircraft(st: St, target: str, side: str) -> list[str]:
    """Un-activated fighters and carrier aircraft of `side` defend their own area and one neighbour, fixed
    the first time they defend it this turn (6.7, assumption 11.12; they always do)."""
    sc = st.sc
    navy = navy_of(st)
    areas = set(coded(sc, target))
    near = {n for a in areas for n in sc.air_adj.get(a, ())}
    out = []
    for u, w in navy.where.items():
        c = sc.counters[u]
        if c.side != side or not c.is_aircraft or u in navy.activated or w not in sc.strat_areas:
            continue
        if c.type != "fighter" and not c.carrier:
            continue
        mine = set(coded(sc, w))
        if mine & areas:
            out.append(u)
        elif mine & near and navy.zones.get(u, target) == target:
            navy.zones[u] = target
            out.append(u)
    return out


def defence_dice(st: St, unit: str) -> int:
    """A defending aircraft's dice: a land fighter its bracketed value, others 1 (assumption 11.14)."""
    c = st.sc.counters[unit]
    return c.air_cv if c.type == "fighter" and not c.carrier else 1


def start_air(st: St, target: str, bombing: bool) -> None:
    """Air attack on ships (6.6, with interception 6.7) or a special bombing mission on a port (6.9)."""
    navy = navy_of(st)
    sc = st.sc
    side = navy.player
    enemy = sc.other(side)
    group = list(navy.group)
    bombers = [u for u in group if sc.counters[u].type == "bomber"]
    escorts = [u for u in group if sc.counters[u].type == "fighter"]
    ships = navy.surface_at(sc, target, enemy)
    cover = defending_aircraft(st, target, enemy)
    b_cv = cv(st, bombers)
    if cover:
        vs_air, vs_ships = interception_split(b_cv, len(bombers))
    else:
        vs_air, vs_ships = 0, b_cv
    underlined = sum(sc.counters[u].cv for u in bombers if sc.counters[u].reroll)
    targets = (HARBOUR,) if bombing else tuple(ships)
    reroll = vs_ships if bombing else min(underlined, vs_ships)
    s = sc.strat_areas[target]
    defence = sum(sc.counters[u].aa for u in ships) + (s.defence if s.kind in ("harbour", "home_port") else 0)
    defence += sum(defence_dice(st, u) for u in cover)
    what = f"bomb {s.name}" if bombing else f"strike at {label(st, target)}"
    st.note(f"{side_label(st, side)} aircraft {what}" + (f"; defending aircraft: {names(st, cover)}" if cover else ""))
    combat = Combat("bombing" if bombing else "air", target, side, attackers=tuple(group),
                    defenders=tuple(ships) + tuple(cover))
    combat.volleys = [
        Volley(side, vs_ships, targets, f"{side_label(st, side)} bombs", reroll=reroll),
        Volley(side, vs_air + sum(sc.counters[u].air_cv for u in escorts), tuple(cover),
               f"{side_label(st, side)} fire at the defending aircraft"),
        Volley(enemy, defence, tuple(group), f"{side_label(st, enemy)} anti-aircraft fire"),
    ]
    open_combat(st, combat)


# ----- end of an action, end of the actions ------------------------------------------------------------------------
def next_action(st: St) -> None:
    navy = navy_of(st)
    navy.actions_left -= 1
    navy.player = st.sc.other(navy.player)
    clear_group(navy)
    navy.stage = "choose" if navy.actions_left > 0 else "end"


def end_actions(st: St) -> None:
    """Sea-lane control decides the Allied landings at the end of the actions (6.10, 3.2-3.4, 11.8)."""
    navy = navy_of(st)
    sc = st.sc
    t = sc.turn(st.turn)
    waiting = list(st.flags.get("landing_wait", []))
    rows = [a for a in t.arrivals if a.landing] + [a for a in landing_rows(sc) if a.unit in waiting]
    made: set[str] = set()
    for a in rows:
        if st.loc[a.unit] != OFFMAP:
            continue
        ok = sea_control(st, a.landing, sc.sides[0]) and (not a.areas or any(
            st.control[x] == sc.troops[a.unit].side for x in a.areas))
        if ok:
            navy.landed[a.unit] = "ok"
            made.add(a.landing)
        elif a.on_fail == "wait" and a.unit not in waiting:
            navy.landed[a.unit] = "wait"
        else:
            navy.landed[a.unit] = "lost"
    for h in sorted({a.landing for a in rows if st.loc[a.unit] == OFFMAP}):
        units = [a.unit for a in rows if a.landing == h]
        result = "lands" if h in made else "cannot land (no sea-lane control)"
        st.note(f"Landing at {sc.strat_areas[h].name}: {', '.join(st.name(u) for u in units)} {result}")
    for h in sorted(made):
        pay(st, f"landing:{h}", sc.sides[0], t.landing_vp, f"landing at {sc.strat_areas[h].name} in turn {st.turn}")
    navy.stage = "over"


def landing_rows(sc: FirestormScenario) -> list[Arrival]:
    return [a for t in sc.turns for a in t.arrivals if a.landing]


def strategic_arrivals(st: St, arrivals: Sequence[Arrival]) -> list[Arrival]:
    """The arrivals of this Strategic Phase: landings only where they were made; a turn 1 landing that
    failed waits for the next turn (once); counters enter at their places; Marine Regiment Berger if due."""
    navy = st.navy
    if navy is None:
        return list(arrivals)
    sc = st.sc
    out = []
    waiting = set(st.flags.get("landing_wait", []))
    rows = list(arrivals) + [a for a in landing_rows(sc) if a.unit in waiting]
    new_wait = []
    for a in rows:
        if not a.landing:
            out.append(a)
            continue
        status = navy.landed.get(a.unit, "lost")
        if status == "ok":
            out.append(a)
        elif status == "wait":
            new_wait.append(a.unit)
        elif st.loc[a.unit] == OFFMAP:
            st.loc[a.unit] = WITHDRAWN
            st.note(f"{st.name(a.unit)} never lands")
    st.flags["landing_wait"] = new_wait
    for c in sc.counters.values():
        if c.arrives == st.turn and navy.where[c.id] == OFFMAP and not c.carrier:
            relocate(st, c.id, c.arrive_at)
            for plane in sc.counters.values():
                if plane.carrier == c.id and navy.where[plane.id] == OFFMAP:
                    navy.where[plane.id] = c.arrive_at
            st.note(f"{c.name} arrives at {label(st, c.arrive_at)}")
    rule = sc.rules.value("naval_infantry")
    if st.flags.pop("naval_infantry", False) and rule:
        nar = tuple(a.id for a in sc.areas.values() if a.map == rule.get("map") and "fjord" not in a.flags)
        out += [Arrival(u, nar, "strategic") for u in rule.get("troops", ()) if st.loc[u] == OFFMAP]
    return out


# ----- the Strategic Phase: strategic moves of counters, airfield limits ---------------------------------------------
def home(st: St, unit: str) -> str:
    return str(st.sc.rules.value("home_airfields")[st.sc.counters[unit].side])


def rail_to_hub(st: St, land: str, side: str) -> bool:
    """An airfield's land area traces rail through friendly areas to the rail hub (7.6)."""
    sc = st.sc
    hub = sc.rules.value("rail_hub")
    if not hub or st.control.get(hub) != side:
        return False

    def rail_ok(a: str) -> bool:
        return "rail" in sc.areas[a].flags and st.control[a] == side

    if not rail_ok(land):
        return False
    return hub in reachable(land, lambda a: [n for n in sc.adjacency[a] if rail_ok(n)])


def airfield_limit(st: St, loc: str, side: str) -> int | None:
    """How many aircraft `side` may keep at an airfield; None = no limit; 0 = unusable (1.4, 7.6)."""
    s = st.sc.strat_areas[loc]
    if s.kind != "airfield" or s.side != side or st.turn < s.from_turn:
        return 0
    if s.land and st.control[s.land] != side:
        return 0
    if s.condition == "bodo" and not st.flags.get("bodo"):
        return 0
    limit = s.capacity
    if limit is not None and s.capacity_unsupplied is not None and s.land and not rail_to_hub(st, s.land, side):
        limit = s.capacity_unsupplied
    if s.allied_limit is not None and side == st.sc.sides[0]:
        limit = s.allied_limit if limit is None else min(limit, s.allied_limit)
    return limit


def airfield_usable(st: St, loc: str, side: str) -> bool:
    return loc in st.sc.strat_areas and airfield_limit(st, loc, side) != 0


def land_aircraft(st: St, side: str) -> list[str]:
    navy = navy_of(st)
    sc = st.sc
    return [u for u, w in navy.where.items() if sc.counters[u].side == side and sc.counters[u].is_aircraft
            and not sc.counters[u].carrier and w in sc.strat_areas]


def fleet_move_options(st: St, side: str) -> list[Move]:
    """Strategic moves (6.12): ships any distance through seas free of enemy surface ships; submarines up
    to 2 areas; land-based aircraft re-base to a friendly airfield with room. Each counter moves once."""
    navy = navy_of(st)
    sc = st.sc
    enemy = sc.other(side)
    out: list[Move] = []
    counts: dict[str, int] = {}
    for u in land_aircraft(st, side):
        counts[navy.where[u]] = counts.get(navy.where[u], 0) + 1
    fields = [loc for loc, s in sc.strat_areas.items() if s.kind == "airfield" and airfield_usable(st, loc, side)]
    blocked = {w for u, w in navy.where.items() if sc.counters[u].side == enemy and is_surface(sc.counters[u])}
    for u, w in navy.where.items():
        c = sc.counters[u]
        if c.side != side or u in navy.moved or w not in sc.strat_areas or c.carrier:
            continue
        if is_surface(c):
            seen = reachable(w, lambda a: [n for n in sc.sea_adj[a] if n not in blocked
                                           and not is_home_port_of_other(sc.strat_areas[n], side)])
            dests = sorted(seen - {w})
        elif c.type == "submarine":
            near = {w}
            frontier = [w]
            for _ in range(int(sc.rules.value("sub_strategic_move"))):
                frontier = [n for a in frontier for n in sc.sea_adj[a]
                            if n not in near and sc.strat_areas[n].kind != "home_port"]
                near.update(frontier)
            dests = sorted(near - {w})
        elif c.is_aircraft:
            dests = []
            for f in fields:
                limit = airfield_limit(st, f, side)
                if f != w and (limit is None or counts.get(f, 0) < limit):
                    dests.append(f)
        else:
            dests = []
        out += [Move(u, d) for d in dests]
    return out


def fleet_mover(st: St) -> str:
    return st.sc.rules.move_order[st.idx]


def begin_fleet_moves(st: St) -> None:
    st.idx = 0
    navy_of(st).moved = set()


def legal_fleet(st: St) -> Sequence[Any]:
    return [*fleet_move_options(st, fleet_mover(st)), PASS]


def apply_fleet(st: St, action: Any) -> None:
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
            for u in sorted(units)[limit:]:
                navy.where[u] = home(st, u)
                st.note(f"{counter(st, u).name} re-bases to {label(st, home(st, u))} (airfield limit)")


# ----- the rows -------------------------------------------------------------------------------------------------------
ROUTES = {
    "stuka": "sa_stuka", "choose": "sa_choose", "form": "sa_form", "move": "sa_move", "evade": "nv_evade",
    "combat": "nv_alloc", "retreat": "nv_retreat", "reply": "nv_reply", "done": "sa_next", "end": "sa_end",
    "over": "plan_place",
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
        Step("sa_next", phase, on_begin=next_action, next=route),
        Step("sa_end", phase, on_begin=end_actions, next=route),
        Step("fleet_moves", "strategic", actor=fleet_mover, legal=legal_fleet, apply=apply_fleet,
             on_begin=begin_fleet_moves, end_if=lambda st: st.idx >= len(st.sc.sides), next=goto("turn_end")),
    ]

