"""Campaign hooks switched on by a scenario's `hooks` list (Caen, Lorraine).

Each hook is a small named rule; the shared flow table calls these functions and they do nothing
unless the scenario enables the hook.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from warroom.core.dice import Roll
from warroom.core.flow import Step, goto
from warroom.core.state import CHANCE, REPORT
from warroom.rulesets.firestorm.actions import CARPET, DEFENCE, PASS, Arrow, Pass, Report, is_token
from warroom.rulesets.firestorm.battle import Battle, table_entry
from warroom.rulesets.firestorm.model import Arrival
from warroom.rulesets.firestorm.options import arrow_options, open_battle
from warroom.rulesets.firestorm.state import CAPTURED, OFF_BOARD, POOL, WITHDRAWN

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St


# ----- GW situation modifiers for the defender ------------------------------------------------------
def defence_modifiers(st: St, b: Battle) -> list[tuple[str, int]]:
    """Defender situation modifiers: terrain (Caen), beaches (Caen 4.4), fortifications and rivers.

    Metz fortifications defend Germans only, and they do not add to the river bonus (Lorraine 4.3):
    a fortified area gets only its fortification bonus.
    """
    sc = st.sc
    area = sc.areas[b.to]
    out: list[tuple[str, int]] = []
    terrain_bonus = sc.rules.value("terrain_defence").get(area.terrain, 0)
    if terrain_bonus:
        out.append((f"defending in {area.terrain}", int(terrain_bonus)))
    if sc.has("beach_defence") and "beach" in area.flags and b.defender == sc.sides[0]:
        out.append(("naval artillery off the beach", int(sc.rules.value("beach_gw"))))
    river = sc.rivers.get(frozenset((b.frm, b.to)))
    if sc.has("fortifications") and "fortified" in area.flags and b.defender == sc.sides[1]:
        out.append(("fortifications", int(sc.rules.value("fortified_gw"))))
    elif river:
        out.append((f"defending across the {river}", sc.rules.river_gw))
    return out


# ----- supply in battle ----------------------------------------------------------------------------
def battle_supply(st: St, b: Battle) -> tuple[bool, bool]:
    """Whether the attacker and the defender are in supply (core 6: the attacker traces from its
    from-area, the defender from the defended area), with Norway's rules when switched on."""
    if not st.sc.has("norway_supply"):
        return st.in_supply(b.frm, b.attacker), st.in_supply(b.to, b.defender)
    return norway_supply(st, b, True), norway_supply(st, b, False)


def norway_supply(st: St, b: Battle, attacking: bool) -> bool:
    """Norway 7.2. Norwegian troops fighting without other Allied nations are always in supply; other
    Allied troops trace to a port whose sea lane the Allies control and which was not bombed this turn
    (`allied_ports`: Namsos, Åndalsnes; Harstad and Ballangen through Narvik, assumption 11.22).
    Germans on the South-Central map are in supply when defending and trace to Oslo when attacking; on
    the Narvik map their supply is a die roll (`supply_roll`), in supply until it fails. One side is in
    or out as a whole.
    """
    sc = st.sc
    side = b.attacker if attacking else b.defender
    area = b.frm if attacking else b.to
    troops = [u for u in (b.att if attacking else b.dfn) if not is_token(u)]
    if side == sc.sides[1]:
        if sc.areas[area].map == sc.rules.value("narvik_map"):
            return True
        return not attacking or st.in_supply(area, side)
    if troops and all(sc.troops[u].nation == "norwegian" for u in troops):
        return True
    return area in open_port_areas(st, side)


def open_port_areas(st: St, side: str) -> set[str]:
    """Areas tracing through `side`'s areas to one of its supply ports that is open now: sea-lane control
    of the port's harbour and no harbour closure this turn (Norway 6.9, 6.10). Sources without a port entry
    in `allied_ports` are always open."""
    from warroom.rulesets.firestorm.maps import reachable
    from warroom.rulesets.firestorm.navy import harbour_closed, sea_control

    sc = st.sc
    ports = sc.rules.value("allied_ports")
    control = st.control
    out: set[str] = set()
    for a in sc.areas.values():
        if a.supply != side or control[a.id] != side or a.id in out:
            continue
        harbour = ports.get(a.id, "")
        if harbour and (not sea_control(st, harbour, side) or harbour_closed(st, harbour)):
            continue
        out |= reachable(a.id, lambda here: [n for n in sc.adjacency[here] if control[n] == side])
    return out


def narvik_roll_needed(st: St) -> int:
    """The d6 the Germans need for supply before a battle on the Narvik map (0: no roll)."""
    sc = st.sc
    b = st.battle
    if b is None or not sc.has("norway_supply") or sc.areas[b.to].map != sc.rules.value("narvik_map"):
        return 0
    needs = sc.rules.value("narvik_supply")
    return int(needs[st.turn - 1]) if st.turn - 1 < len(needs) else 0


def supply_roll_dice(st: St) -> int:
    return 1 if narvik_roll_needed(st) else 0


def resolve_supply_roll(st: St, values: tuple[int, ...]) -> None:
    """Norway 7.2: before each Narvik battle the Germans roll for supply (2+, 3+, 4+ by turn)."""
    if not values:
        return
    b = st.battle
    assert b is not None
    need = narvik_roll_needed(st)
    ok = values[0] >= need
    axis = st.sc.sides[1]
    if b.attacker == axis:
        b.att_supplied = ok
    else:
        b.def_supplied = ok
    st.note(f"German supply at Narvik: [{values[0]}] needs {need}+ -> {'in supply' if ok else 'out of supply'}")


# ----- air drops -----------------------------------------------------------------------------------------------
def drop_zone(st: St, arrival: Arrival) -> tuple[str, ...]:
    """Where an air-dropped reinforcement may land (Norway 3.2, assumption 11.10): a listed area with no
    enemy troop is taken by the drop; one the enemy holds with troops sends it to a friendly neighbour."""
    sc = st.sc
    side = sc.troops[arrival.unit].side
    zone: list[str] = []
    for area in arrival.areas:
        if st.control[area] == side:
            zone.append(area)
        elif not st.units_at(area, sc.other(side)):
            st.set_control(area, side)
            st.note(f"{st.name(arrival.unit)} drops on {st.area_label(area)} and takes it")
            zone.append(area)
    if zone:
        return tuple(zone)
    return tuple(sorted({n for a in arrival.areas for n in sc.adjacency[a] if st.control[n] == side}))


# ----- tabletop set-up: weather, variable forces, briefing ------------------------------------------
def weather_effect(st: St, face: int) -> str:
    """Lorraine Weather Effects table (L 4.2); assumption: bands 1 / 2 / 3 / 4-6 (digest suggestion)."""
    return table_entry(st.sc.tables.get("weather", []), face)


def tabletop_table(st: St, item: str) -> Sequence[Sequence[Any]]:
    """The table a committed item's tabletop force is rolled on, if any (Caen 4.2 German Defence
    troop; Lorraine German infantry)."""
    if item == DEFENCE:
        rows: Sequence[Sequence[Any]] = st.sc.rules.value("defence_tabletop")
        return rows
    troop = st.sc.troops.get(item)
    return troop.tabletop if troop is not None else ()


def tabletop_briefing(st: St, b: Battle) -> list[str]:
    """Set-up reminders for a tabletop battle: rivers, fortifications, naval guns, bombardment.

    The texts are scenario data (`[tables.briefing]`); the situations that call them are rules.
    """
    sc = st.sc
    texts = sc.tables.get("briefing", {})
    area = sc.areas[b.to]
    out = []
    river = sc.rivers.get(frozenset((b.frm, b.to)))
    fortified = sc.has("fortifications") and "fortified" in area.flags and b.defender == sc.sides[1]
    if fortified and "fortified" in texts:
        out.append(str(texts["fortified"]))
    elif river:
        out.append(str(texts.get("river", "A river runs through no-man's land.")).format(river=river))
        if sc.has("fortifications") and "moselle_east" in area.flags and b.defender == sc.sides[1] \
                and "river_fortified" in texts:
            out.append(str(texts["river_fortified"]))
    if sc.has("beach_defence") and "beach" in area.flags and b.defender == sc.sides[0] and "beach" in texts:
        out.append(str(texts["beach"]))
    if CARPET in b.att and "carpet" in texts:
        out.append(str(texts["carpet"]))
    if b.kind == "caumont" and "caumont" in texts:
        out.append(str(texts["caumont"]))
    if b.from_reserve and "reserve" in texts:
        names = ", ".join(st.name(u) for u in b.from_reserve)
        out.append(str(texts["reserve"]).format(troops=names))
    return out


# ----- Caen: Caumont Gap ----------------------------------------------------------------------------
def caumont_due(st: St) -> bool:
    """Caen T2: the Caumont Gap battle is due once the Allies hold Bayeux (C:666).

    assumption: (battles in parallel) it waits until no battle is at a table: it moves 7 Armd and SS 101
    wherever they are and takes the gap at once, which must not touch troops or areas of a battle still
    being played; it then comes at the next point between battles, before the Strategic Phase."""
    sc = st.sc
    if not sc.has("caumont_gap") or st.flags.get("caumont_done") or st.parked:
        return False
    v = sc.rules.value("caumont")
    return bool(v) and st.turn == v["turn"] and st.control[v["trigger"]] == sc.sides[0]


def begin_caumont(st: St) -> None:
    """Take the gap area at once; 7 Armd attacks Villers-Bocage alone against SS 101 alone.

    assumption: (Caen ambiguity 10) 7 Armd is moved to the gap wherever it is on the map; if it is
    off the map (pool, captured) the battle does not happen. German troops in the gap fall back to an
    adjacent German area with room; if German neighbours exist but are full they are destroyed, and
    with no German neighbour they are captured (as in a retreat, core 7.4 / Caen 4.1). SS 101 joins
    the defence of Villers-Bocage only if stacking leaves it room, and 7 Armd moves to the gap only if
    it has room; otherwise there is no battle. The first German neighbour with room takes displaced
    troops (an automatic retreat: the gap falls at once, before any decision).
    """
    sc = st.sc
    v = sc.rules.value("caumont")
    allies, axis = sc.sides
    st.flags["caumont_done"] = True
    gap, target, att, dfn = v["gap"], v["target"], v["attacker"], v["defender"]
    if st.control[gap] != allies:
        german_neighbours = [n for n in sc.adjacency[gap] if st.control[n] == axis]
        for u in st.units_at(gap, axis):
            spots = [n for n in german_neighbours if st.has_room(n)]
            if spots:
                st.loc[u] = spots[0]
            elif german_neighbours:
                st.destroy(u)
            else:
                st.capture(u)
        st.set_control(gap, allies)
        st.note(f"Caumont Gap: the Allies take {st.area_label(gap)} at once")
    room_for_defender = st.loc[dfn] == target or st.has_room(target)
    room_for_attacker = st.loc[att] == gap or st.has_room(gap)
    if (st.loc[att] in OFF_BOARD or st.control[target] != axis or st.loc[dfn] in (CAPTURED, WITHDRAWN)
            or not room_for_defender or not room_for_attacker):
        st.note("Caumont Gap: the special battle does not take place")
        return
    st.loc[att] = gap
    st.loc[dfn] = target
    open_battle(st, "caumont", allies, gap, target, max_ft=1)
    b = st.battle
    assert b is not None
    b.att, b.dfn = (att,), (dfn,)
    b.att_supplied = st.in_supply(gap, allies)
    b.def_supplied = st.in_supply(target, axis)
    st.note(f"Caumont Gap: {st.name(att)} attacks {st.area_label(target)}; {st.name(dfn)} defends alone")


# ----- Caen: withdrawal, Lorraine: German Success ---------------------------------------------------
def withdraw(st: St, units: Sequence[str]) -> None:
    """Caen end of T3: listed units leave for good, for no VP; captured ones stay captured (C 3.4)."""
    for u in units:
        if st.loc[u] != CAPTURED:
            st.loc[u] = WITHDRAWN
            st.note(f"{st.name(u)} is withdrawn from the campaign")


def final_bonuses(st: St) -> None:
    """Lorraine German Success (L 4.7): +100 once if the Germans hold any listed Allied area."""
    sc = st.sc
    if sc.has("german_success"):
        axis = sc.sides[1]
        areas = sc.rules.value("german_success_areas")
        held = [a for a in areas if st.control[a] == axis]
        if held:
            bonus = int(sc.rules.value("german_success_vp"))
            st.bonus_vp[axis] += bonus
            st.note(f"German Success: the Germans hold {', '.join(held)}: +{bonus} VP")


# ----- Caen: the D-Day turn ----------------------------------------------------------------------------
def dday_actor(st: St) -> str:
    return REPORT if st.mode == "tabletop" else CHANCE


def dday_row(st: St, action: Any) -> int:
    """The table row: the GW die, or (tabletop) the Allied VP score (Caen ambiguity 7)."""
    if isinstance(action, Report):
        allied, german = action.attacker_vp, action.defender_vp
        if allied < 3 and german < 3:
            return 3
        return max(1, min(6, allied))
    return int(action.values[0])


def dday_begin(st: St) -> None:
    st.flags["dice"] = 1
    st.flags["dday_done"] = False


def apply_tonga(st: St, action: Any) -> None:
    """Operation Tonga (Caen 3.2): the row sets the fate of 6 Airborne and of the drop zone."""
    sc = st.sc
    allies = sc.sides[0]
    t = sc.tables["tonga"]
    row = dday_row(st, action)
    fate, taken = t["rows"][row - 1]
    unit, area = t["unit"], t["area"]
    st.flags["dice"] = 0
    st.flags["dday_done"] = True
    die = f" (die [{row}])" if isinstance(action, Roll) else ""
    st.note(f"Operation Tonga: row {row}{die} -> airborne {fate}, {area} {'captured' if taken else 'not captured'}")
    if taken:
        st.set_control(area, allies)
    if fate == "lands":
        st.loc[unit] = area
    elif fate == "pool":
        st.loc[unit] = POOL
        st.note(f"{st.name(unit)} is destroyed and goes to the Reinforcement Pool")
    else:
        st.capture(unit)


def neptune_begin(st: St) -> None:
    st.flags.setdefault("beach_idx", 0)
    st.flags["dice"] = 1
    st.flags["dday_done"] = False


def apply_neptune(st: St, action: Any) -> None:
    """Operation Neptune (Caen 3.2): the beach is always taken; the row decides the tank brigade
    and any follow-up attack from it."""
    sc = st.sc
    t = sc.tables["neptune"]
    i = int(st.flags["beach_idx"])
    beach, division, brigade = t["beaches"][i]
    row = dday_row(st, action)
    fate, attack_ft, blocked_until = t["rows"][row - 1]
    st.set_control(beach, sc.sides[0])
    st.loc[division] = beach
    die = f" (die [{row}])" if isinstance(action, Roll) else ""
    st.note(f"Operation Neptune, {st.area_label(beach)}: row {row}{die} -> {st.name(division)} lands; "
            f"tank brigade {fate}")
    if fate == "lands":
        st.loc[brigade] = beach
    elif fate == "pool":
        st.loc[brigade] = POOL
        st.note(f"{st.name(brigade)} is destroyed and returns as a reinforcement")
    else:
        st.capture(brigade)
    if attack_ft:
        st.flags.setdefault("exploits", []).append((beach, int(attack_ft)))
    blocked = dict(st.flags.get("no_attack_from", {}))
    blocked[beach] = int(blocked_until)
    st.flags["no_attack_from"] = blocked
    st.flags["beach_idx"] = i + 1
    if i + 1 >= len(t["beaches"]):
        st.flags["dice"] = 0
        st.flags["dday_done"] = True


def exploit_legal(st: St) -> list[Any]:
    beach, _ = st.flags["exploits"][0]
    return [*arrow_options(st, st.sc.sides[0], [beach]), PASS]


def prune_exploits(st: St) -> None:
    """Drop follow-up attacks whose beach cannot attack any more (no troops or no target)."""
    exploits = st.flags.setdefault("exploits", [])
    while exploits and len(exploit_legal(st)) == 1:
        exploits.pop(0)


def apply_exploit(st: St, action: Any) -> None:
    _beach, max_ft = st.flags["exploits"].pop(0)
    if isinstance(action, Pass):
        prune_exploits(st)
        return
    assert isinstance(action, Arrow)
    open_battle(st, "exploit", st.sc.sides[0], action.frm, action.to, max_ft=max_ft)


def pz21_legal(st: St) -> list[Any]:
    unit = st.sc.tables["neptune"]["counter_attack"]
    where = st.loc[unit]
    if where in OFF_BOARD:
        return []
    return [*arrow_options(st, st.sc.sides[1], [where]), PASS]


def pz21_begin(st: St) -> None:
    st.flags["pz21_done"] = len(pz21_legal(st)) <= 1
    if st.flags["pz21_done"]:
        st.note("21. Panzerdivision cannot counter-attack")


def apply_pz21(st: St, action: Any) -> None:
    st.flags["pz21_done"] = True
    if isinstance(action, Arrow):
        unit = st.sc.tables["neptune"]["counter_attack"]
        open_battle(st, "pz21", st.sc.sides[1], action.frm, action.to, required=unit)


def dday_steps() -> list[Step[St]]:
    """Caen turn 1: Tonga, Neptune on three beaches, follow-up attacks, 21. Pz counter-attack."""
    return [
        Step("dday_tonga", "d-day", actor=dday_actor, apply=apply_tonga, on_begin=dday_begin,
             end_if=lambda st: bool(st.flags.get("dday_done")), next=goto("dday_neptune")),
        Step("dday_neptune", "d-day", actor=dday_actor, apply=apply_neptune, on_begin=neptune_begin,
             end_if=lambda st: bool(st.flags.get("dday_done")), next=goto("dday_exploit")),
        Step("dday_exploit", "d-day", actor=lambda st: st.sc.sides[0], legal=exploit_legal, apply=apply_exploit,
             on_begin=prune_exploits, end_if=lambda st: st.battle is not None or not st.flags.get("exploits"),
             next=lambda st: "attack_commit" if st.battle is not None else "dday_pz21"),
        Step("dday_pz21", "d-day", actor=lambda st: st.sc.sides[1], legal=pz21_legal, apply=apply_pz21,
             on_begin=pz21_begin, end_if=lambda st: bool(st.flags.get("pz21_done")),
             next=lambda st: "attack_commit" if st.battle is not None else "strategic_start"),
    ]
