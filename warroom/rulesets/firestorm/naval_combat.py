"""Strategic Game combat (Firestorm: Norway digest sections 6.3-6.9): one dice pipeline for every fight.

Each side splits its dice over declared targets (`allocate TARGET N`), all dice are rolled at once, then
misses that may be re-rolled (underlined bombers, bombs on a harbour) and battleships' single hits are
re-rolled. What a fight leads to (retreat, the ships' reply to submarines, the end of the action) is
decided by `finish_combat`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import AIMS, PASS, Order, Pass
from warroom.rulesets.firestorm.fleet import Combat, Volley
from warroom.rulesets.firestorm.model import REVISION
from warroom.rulesets.firestorm.naval import HIT, battleship_sunk, deal, half_up, interception_split, tally
from warroom.rulesets.firestorm.navy import close_harbour
from warroom.rulesets.firestorm.state import GONE

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St
from warroom.rulesets.firestorm.sea import (
    HARBOUR,
    NOT_NOW,
    alive,
    coded,
    counter_problem,
    cv,
    enemy_ships_here,
    is_home_port_of_other,
    label,
    listing,
    location_problem,
    lose,
    names,
    navy_of,
    not_next_to,
    order,
    place,
    relocate,
    sail_options,
    side_label,
    side_name,
    well_formed,
)


def lurking_subs(st: St, loc: str, side: str) -> list[str]:
    """Un-activated enemy submarines that may attack ships of `side` at `loc` (not in home ports, 6.8)."""
    sc = st.sc
    if sc.strat_areas[loc].kind == "home_port":
        return []
    navy = navy_of(st)
    enemy = sc.other(side)
    return [u for u in navy.at_loc(sc, loc, enemy) if sc.counters[u].type == "submarine" and u not in navy.activated]


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


def fight(st: St) -> Combat:
    """The fight in progress."""
    combat = navy_of(st).combat
    assert combat is not None, "no fight in progress"
    return combat


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
    combat = fight(st)
    v = deciding_volley(combat)
    return v.side if v is not None else ""


def allocate_problem(st: St, v: Volley, target: str, n: int) -> str:
    """Why `n` of the volley's dice may not go at `target` ('' if they may): each side splits its dice over the
    enemy units in the fight, each target once, declared before the roll (6.3)."""
    return target_problem(st, v, target) or dice_problem(v, n)


def dice_problem(v: Volley, n: int) -> str:
    """Why `n` dice may not be allocated from what is left of the volley ('' if they may)."""
    if n < 1:
        return "allocate at least one die"
    if n > v.left():
        return f"only {v.left()} of the volley's {v.dice} dice are left to allocate, not {n}"
    return ""


def target_problem(st: St, v: Volley, target: str) -> str:
    """Why none of the volley's dice may go at `target` ('' if some may)."""
    if target not in v.targets:
        names = listing([f"{t} ({target_name(st, t)})" for t in v.targets if t not in v.alloc])
        if target not in st.sc.counters and target != HARBOUR:
            return f"unknown counter {target!r}; this volley's targets: {names}"
        return f"{target_name(st, target)} is not a target in this fight (6.3); this volley's targets: {names}"
    if target in v.alloc:
        return f"{target_name(st, target)} already has {v.alloc[target]} dice: each target is allocated once"
    return ""


def legal_alloc(st: St) -> Sequence[Any]:
    combat = fight(st)
    v = deciding_volley(combat)
    if v is None:
        return ()
    left = v.left()
    out: list[Any] = [order("allocate", t, n=n) for t in v.targets if not target_problem(st, v, t)
                      for n in range(1, left + 1)]  # exactly the numbers `dice_problem` allows
    if v.may_hold:
        out.append(PASS)
    return out


def alloc_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal allocation of the deciding volley's dice now ('' if it is)."""
    v = deciding_volley(fight(st))
    if v is None:
        return NOT_NOW
    if isinstance(action, Pass):
        return "" if v.may_hold else "every die must be allocated: only submarines may hold their fire (6.3, 6.8)"
    if not well_formed(action, "allocate"):
        return NOT_NOW
    return allocate_problem(st, v, action.arg, action.n)


def apply_alloc(st: St, action: Pass | Order) -> None:
    combat = fight(st)
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
    combat = fight(st)
    return sum(v.dice for v in combat.volleys)


def target_name(st: St, target: str) -> str:
    if target == HARBOUR:
        combat = navy_of(st).combat
        return f"{st.sc.strat_areas[combat.at].name} harbour" if combat else "the harbour"
    c = st.sc.counters.get(target)
    return c.name if c is not None else target


def resolve_roll(st: St, values: tuple[int, ...]) -> None:
    """All dice at once (simultaneous fire, 6.3); then which misses may be re-rolled."""
    combat = fight(st)
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
    combat = fight(st)
    return len(combat.misses)


def resolve_reroll(st: St, values: tuple[int, ...]) -> None:
    """Underlined bombers against ships, and every bomb on a harbour, re-roll each miss once (5.1, 6.9)."""
    combat = fight(st)
    if values:
        st.note("Misses re-rolled: " + " ".join(f"[{v}]" for v in values))
    for (_, target), face in zip(combat.misses, values, strict=True):
        if face == HIT:
            combat.hits[target] = combat.hits.get(target, 0) + 1
    combat.misses = []
    combat.pending = [t for t, n in combat.hits.items() if n == 1 and t in st.sc.counters
                      and st.sc.counters[t].type == "battleship"]


def bship_dice(st: St) -> int:
    combat = fight(st)
    return len(combat.pending)


def resolve_bship(st: St, values: tuple[int, ...]) -> None:
    """A battleship's single hit is re-rolled; only a second six sinks it (5.1, EX-9)."""
    combat = fight(st)
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
        close_harbour(st, combat.at)
    finish_combat(st)


def harbour_dice(st: St, loc: str) -> int:
    """A harbour's defence dice (1.3, 6.3).

    assumption: they help the side whose ships are in the harbour when it is attacked, whoever holds the
    town on the land map (the digest gives them to the defender and names no owner)."""
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


def evade_problem(st: St, action: Action) -> str:
    """The Germans may always fight or evade when surface combat is joined (6.5)."""
    return "" if well_formed(action, "fight", "evade") else NOT_NOW


def apply_evade(st: St, action: Order) -> None:
    assert isinstance(action, Order)
    surface_volleys(st, evade=action.verb == "evade")


def surface_volleys(st: St, evade: bool) -> None:
    navy = navy_of(st)
    sc = st.sc
    active = navy.player
    passive = sc.other(active)
    mine = alive(st)
    theirs = navy.surface_at(sc, navy.at, passive)
    firing = [c for c in mine if navy.aims.get(c) != "subs"]  # mixed defence: the counters aimed at the ships
    combat = Combat("surface", navy.at, active, evade=evade, attackers=tuple(mine), defenders=tuple(theirs))
    if evade:
        evader = str(sc.rules.value("evade_side"))
        other = sc.other(evader)
        shooters = firing if other == active else theirs
        targets = theirs if other == active else mine
        st.note(f"The {side_label(st, evader)} declare a voluntary retreat: no dice for them, "
                f"{side_label(st, other)} fire half their dice")
        combat.volleys = [Volley(other, half_up(cv(st, shooters)), tuple(targets), f"{side_label(st, other)} fire")]
    else:
        combat.volleys = [
            Volley(active, cv(st, firing), tuple(theirs), f"{side_label(st, active)} fire"),
            Volley(passive, cv(st, theirs) + harbour_dice(st, navy.at), tuple(mine),
                   f"{side_label(st, passive)} fire"),
        ]
    open_combat(st, combat)


def finish_combat(st: St) -> None:
    """After the dice: what the fight leads to (retreat, submarine reply, or the end of the action)."""
    navy = navy_of(st)
    combat = fight(st)
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
    elif kind == "reply" and navy.return_to == "surface":  # mixed defence: now the surface ships (6.8)
        navy.combat = None
        navy.return_to = ""
        after_subs(st)
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
    navy.aims = {}
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
    navy.stage = "retreat" if units else "move" if then == "move" and alive(st) else "done"
    if units:
        st.note(f"{side_label(st, side)} must retreat: {names(st, units)}")
        navy.retreat_path = [navy.where[units[0]]]


def retreaters(st: St) -> list[str]:
    navy = navy_of(st)
    return [u for u in navy.retreating if navy.where[u] not in (GONE,)]


def withdraw_problem(st: St, loc: str, words: bool = True, here: str = "") -> str:
    """Why the retreating ships may not withdraw to `loc` ('' if they may): to an adjacent area, never back where
    they have been, never into the enemy's home ports (1.3, 6.4). Without `words`, a refusal is not dressed
    with the places still open (the list of them asks this function); `here`, where the ships are, may be
    passed in when known."""
    sc = st.sc
    navy = navy_of(st)
    bad = location_problem(st, loc)
    if bad:
        return bad
    here = here or navy.where[retreaters(st)[0]]
    if loc not in sc.sea_adj[here]:
        return not_next_to(st, loc, here, "retreating ships")
    s = sc.strat_areas[loc]
    if is_home_port_of_other(s, navy.retreat_side):
        return f"{place(st, loc)} is a home port of the {side_name(st, s.side)}: a retreat may not enter it (1.3, 6.4)"
    if loc in navy.retreat_path:
        back = f"the retreating ships have already been in {place(st, loc)}: a retreat never goes back (6.4)"
        return f"{back}; open: {listing([o.arg for o in retreat_options(st)])}" if words else back
    return ""


def retreat_options(st: St) -> list[Order]:
    navy = navy_of(st)
    here = navy.where[retreaters(st)[0]]
    return [order("withdraw", n) for n in st.sc.sea_adj[here] if not withdraw_problem(st, n, False, here)]


def withdraw_step_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal retreat of the ships now ('' if it is)."""
    if not well_formed(action, "withdraw"):
        return NOT_NOW
    return withdraw_problem(st, action.arg)


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


def apply_retreat(st: St, action: Order) -> None:
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


def start_sub_attack(st: St, subs: Sequence[str], ships: Sequence[str], reactive: bool) -> None:
    """Submarines fire one die each at ships they choose; a six sinks (6.8). Reactive attackers may hold fire."""
    navy = navy_of(st)
    side = st.sc.counters[subs[0]].side
    combat = Combat("sub", navy.at, navy.player, attackers=tuple(subs), defenders=tuple(ships))
    combat.volleys = [Volley(side, len(subs), tuple(ships), f"Submarines ({side_label(st, side)}) fire",
                             may_hold=True)]
    navy.return_to = "react" if reactive else "active"
    open_combat(st, combat)


def after_sub_attack(st: St, combat: Combat) -> None:
    """Every surviving ship counter of the group answers with one die (not its CV), half if the group sails
    on (6.8, EX-7). Ships sunk do not reply. With enemy surface ships also present, the group's side first aims
    each counter at the submarines or at the ships (6.8 mixed defence, `legal_aim`)."""
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
        if navy.no_fight or st.params.get("revision", REVISION) < 2:
            after_subs(st)  # a group that evaded may not fight again; under revision 1 (a game begun before the
            # 6.8 fix) the group fights the surface ships with every counter
        else:
            navy.aims = {}
            navy.stage = "aim"
        return
    if reactive and sail_options(st):
        navy.stage = "reply"
        return
    start_reply(st, ship_side, targets, press=False, then="done")


def legal_aim(st: St) -> Sequence[Any]:
    """Mixed defence (6.8): the entering side says, counter by counter, whether it attacks the submarines that
    fired or the surface ships here (never both)."""
    navy = navy_of(st)
    for c in alive(st):
        if c not in navy.aims:
            return [order("aim", c, aim) for aim in AIMS]
    return []


def aim_problem(st: St, action: Action) -> str:
    """Why `action` is not a legal aim of a counter of the side to act now (6.8 mixed defence); '' if it is."""
    if not well_formed(action, "aim"):
        return NOT_NOW
    bad = counter_problem(st, action.arg, st.current_player())
    if bad:
        return bad
    if action.what not in AIMS:
        return f"a counter aims at the {' or the '.join(AIMS)}, not {action.what!r}"
    navy = navy_of(st)
    names_of = st.sc.counters
    name = names_of[action.arg].name
    if action.arg not in alive(st):
        return f"{name} is not among the ships that entered here: only they aim"
    if action.arg in navy.aims:
        return f"{name} already aims at the {'submarines' if navy.aims[action.arg] == 'subs' else 'surface ships'}"
    asked = legal_aim(st)
    if asked and asked[0].arg != action.arg:
        return f"each counter aims in turn: {names_of[asked[0].arg].name} is asked first"
    return ""


def apply_aim(st: St, action: Order) -> None:
    """Record one counter's aim; once every counter has one, those aimed at the submarines reply to them (one
    die each, the group having stopped here to fight), then the rest fight the surface ships (6.8).

    assumption: with every counter aimed at the submarines the enemy surface ships still fire, and the group
    adds no combat value to that fight (the digest's suggestion: only counters that chose the ships add their CV;
    the retreat comparison counts every surviving surface counter)."""
    assert isinstance(action, Order)
    navy = navy_of(st)
    navy.aims[action.arg] = action.what
    target = "submarines" if action.what == "subs" else "surface ships"
    st.note(f"{st.sc.counters[action.arg].name} attacks the {target}")
    if legal_aim(st):
        return
    hunters = [c for c in alive(st) if navy.aims.get(c) == "subs"]
    if hunters and navy.reply_subs:
        start_reply(st, navy.player, hunters, press=False, then="surface")
    else:
        after_subs(st)


def reply_actor(st: St) -> str:
    return navy_of(st).player


def legal_reply(st: St) -> Sequence[Any]:
    return [order("stand"), order("press")]


def reply_problem(st: St, action: Action) -> str:
    """Ships attacked by submarines on their way may always stand or press on (6.8)."""
    return "" if well_formed(action, "stand", "press") else NOT_NOW


def apply_reply(st: St, action: Order) -> None:
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


def defending_aircraft(st: St, target: str, side: str) -> list[str]:
    """Un-activated fighters and carrier aircraft of `side` defend their own area and one neighbouring
    area, the first neighbour they defend this turn (6.7, assumption 11.12; they always do). A harbour lies
    in both its areas, so a zone fixed on a sea area covers its harbours too."""
    sc = st.sc
    navy = navy_of(st)
    areas = set(coded(sc, target))
    out = []
    for u, w in navy.where.items():
        c = sc.counters[u]
        if c.side != side or not c.is_aircraft or u in navy.activated or w not in sc.strat_areas:
            continue
        if c.type != "fighter" and not c.carrier:
            continue
        mine = coded(sc, w)
        if areas.intersection(mine):
            out.append(u)
            continue
        reachable_areas = sorted(a for a in areas if any(a in sc.air_adj.get(m, ()) for m in mine))
        zone = navy.zones.get(u)
        if zone is None and reachable_areas:
            zone = navy.zones[u] = reachable_areas[0]
        if zone in reachable_areas:
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
