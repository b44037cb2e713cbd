"""Firestorm: Norway land-map rules (digest sections 3, 4, 7, 9.3, 10 and 11), one hook each.

- `ofotfjord`: a `fjord` area is a pass-through node for the side holding its harbour (1.6, 6.11, 11.34);
- `evacuation`: a beaten garrison of Namsos or Åndalsnes leaves by sea, or is captured (3.3, 10);
- `naval_gunfire`: Allied ships in Narvik harbour support Narvik-map battles (4, 7.1, 11.33);
- `norway_air`: where and when each side's air sorties may fly over the land maps (7.6, 7.7, 11.27);
- `norway_turns`: the turn specials and bonus VP: Bodø, the South-Central closure, the Narvik wrap-up (3.2-3.5,
  9.3);
- `norway_briefing`: the tabletop briefing: troops, supply, Warriors, winter and force size (4, 10, EX-10).

Every number, list and text is scenario data (`[rules.values]`, `[[turn]]` keys, `[tables.briefing]`); the
Strategic Game is read only through the queries of `navy.py`, so these rules work with it or without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from warroom.rulesets.firestorm.actions import AIR, NAVAL, is_token
from warroom.rulesets.firestorm.battle import Battle
from warroom.rulesets.firestorm.maps import reachable
from warroom.rulesets.firestorm.model import Arrival
from warroom.rulesets.firestorm.navy import harbour_closed, harbour_holder, harbour_of, sea_control, ships_in
from warroom.rulesets.firestorm.state import OFFMAP, WITHDRAWN

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState as St


def map_of(st: St, area: str) -> str:
    return st.sc.areas[area].map


# ----- bonus VP ledger (9.3) ------------------------------------------------------------------------------
def pay(st: St, key: str, side: str, vp: int, why: str) -> None:
    """Pay a bonus once per campaign `key`: into `st.bonus_vp`, recorded in `st.flags.bonus_paid`."""
    paid: dict[str, tuple[str, int]] = st.flags.bonus_paid
    if key in paid or vp == 0:
        return
    paid[key] = (side, vp)
    st.bonus_vp[side] += vp
    if st.record_events:
        st.note(f"Bonus: {why}: {st.sc.side_names[side]} +{vp} VP")


# ----- Ofotfjord (1.6, 6.11, 11.34) ----------------------------------------------------------------------
def fjord_holder(st: St) -> str:
    """Who may cross the fjord: the holder of its harbour (at Narvik, ships in port suffice, 6.11).

    assumption: with no surface ship in the harbour, the side holding the harbour's land area (Narvik
    Z3) holds it, as for every other Norwegian harbour (digest 6.11); so someone always controls the fjord.
    """
    harbour = str(st.sc.rules.value("fjord_harbour"))
    holder = harbour_holder(st, harbour)
    if not holder:
        holder = st.control[st.sc.strat_areas[harbour].land]
    return holder


def refresh_fjords(st: St) -> None:
    """Keep each fjord area's control equal to its harbour's holder, so that strategic moves (`state.reach`)
    and supply traces pass through it for that side only; nothing ever stops there (`sc.no_stop`).

    Called on entering the land steps where the holder may have changed: turn start (after the Strategic
    Actions), each battle, each capture, the Strategic Phase and its moves.

    assumption: supply traces may cross the fjord like strategic moves (digest 11.34 makes it a
    pass-through node for the harbour's holder; Ballangen Z1 then links to Harstad X1 by water).
    """
    sc = st.sc
    if not sc.has("ofotfjord"):
        return
    side = fjord_holder(st)
    for area in sc.no_stop:
        st.set_control(area, side)


# ----- evacuation (3.3, 10) ------------------------------------------------------------------------------
def evacuate(st: St, b: Battle, staying: list[str]) -> list[str]:
    """T2-T3: the Germans took a port: its Allied non-Norwegian troops sail home for good (`WITHDRAWN`, no
    VP) while the Allies keep sea control of its harbour, else they are captured. Returns the troops that
    still retreat normally (the Norwegians)."""
    sc = st.sc
    allies, axis = sc.sides
    if (not sc.has("evacuation") or "evacuation" not in sc.turn(st.turn).special or b.attacker != axis
            or b.to not in sc.rules.value("evacuation_ports")):
        return staying
    stay = set(sc.rules.value("evacuation_stay"))
    by_sea = sea_control(st, harbour_of(sc, b.to), allies)
    keep = []
    for u in staying:
        if sc.troops[u].nation in stay:
            keep.append(u)
        else:
            leave_by_sea(st, u, by_sea, f"is evacuated by sea from {st.area_label(b.to)} and leaves the campaign",
                         f"cannot be evacuated from {st.area_label(b.to)}: no Allied sea control")
    return keep


def leave_by_sea(st: St, unit: str, by_sea: bool, left: str, stuck: str) -> None:
    """A troop leaves the map by sea for good (`WITHDRAWN`, no VP) with sea control, else it is captured."""
    if st.record_events:
        st.note(f"{st.name(unit)} {left if by_sea else stuck}")
    if by_sea:
        st.loc[unit] = WITHDRAWN
    else:
        st.capture(unit)


# ----- naval gunfire support (4, 7.1, 11.33) -------------------------------------------------------------
def gunfire(st: St, b: Battle, side: str) -> tuple[int, str]:
    """(bonus, ship) of the best naval gunfire `side` may call on in this battle: the strongest Allied
    ship with a `gunfire` value in the harbour, for battles on the gunfire map; (0, '') otherwise.

    assumption: Allies only, from ships inside the harbour (digest 11.33: the rule names destroyers and
    cruisers, which only the Allies have). Without the Strategic Game no ship is known to be in the
    harbour, so there is no gunfire.
    """
    sc = st.sc
    if (not sc.has("naval_gunfire") or side != sc.sides[0]
            or map_of(st, b.to) != sc.rules.value("gunfire_map")):
        return 0, ""
    best = (0, "")
    for c in ships_in(st, str(sc.rules.value("gunfire_harbour")), side):
        counter = sc.counters[c]
        if counter.gunfire > best[0]:
            best = (counter.gunfire, counter.name)
    return best


# ----- air sorties on the land maps (7.6, 7.7, 11.21, 11.27) ---------------------------------------------
def counter_at(st: St, counter: str, loc: str) -> bool:
    """A Strategic Map counter is at `loc`.

    assumption: without the Strategic Game a counter is taken to be where it arrives from its arrival
    turn on (`arrives`), e.g. the Norway Hurricane at C1 from T3 (digest 3.4).
    """
    if st.navy is None:
        return st.turn >= st.sc.counters[counter].arrives
    return st.navy.where.get(counter) == loc


def air_rule(st: St, b: Battle, side: str) -> dict[str, Any] | None:
    """The first `land_air` rule of `side` that lets its sortie fly in this battle, or None.

    A rule names its `maps` (and `bodo_maps`, open while the Germans may use Bodø), its `turns` (empty:
    every turn), a Strategic Map `counter` that must be `at` a place, and `with_troops` of which one must
    have come into play (the Gladiator flies with Mauriceforce).
    """
    m = map_of(st, b.to)
    for rule in st.sc.rules.value("land_air").get(side, []):
        turns = rule.get("turns", [])
        if turns and st.turn not in turns:
            continue
        maps = list(rule.get("maps", []))
        if st.flags.bodo:
            maps.extend(rule.get("bodo_maps", []))
        if m not in maps:
            continue
        if rule.get("counter") and not counter_at(st, rule["counter"], rule.get("at", "")):
            continue
        troops = rule.get("with_troops", [])
        if troops and all(st.loc[u] == OFFMAP for u in troops):
            continue
        return dict(rule)
    return None


def air_allowed(st: St, b: Battle, side: str) -> bool:
    return air_rule(st, b, side) is not None


def air_counts(st: St, b: Battle, side: str) -> bool:
    """An interception-only sortie (the RAF, 7.7) adds its bonus only against enemy aircraft."""
    rule = air_rule(st, b, side)
    if rule is None or not rule.get("intercept"):
        return True
    enemy = b.dfn if side == b.attacker else b.att
    return AIR in enemy


# ----- turn specials and bonus VP (3.2-3.5, 7.6, 9.3) ----------------------------------------------------
def closed(st: St, area: str) -> bool:
    """No more battles on a closed map (3.4)."""
    return map_of(st, area) in st.flags.closed_maps


def on_capture(st: St, area: str, side: str) -> None:
    """`capture` bonuses of the turn (9.3): each pays once per key (11.25: Trondheim once per campaign)."""
    sc = st.sc
    if not sc.has("norway_turns"):
        return
    for bonus in sc.turn(st.turn).bonus:
        if bonus.when == "capture" and bonus.area == area and bonus.side == side:
            pay(st, bonus.key, side, bonus.vp, f"{sc.side_names[side]} capture {st.area_label(area)}")


def troops_on(st: St, map_id: str, side: str) -> list[str]:
    """`side`'s troops standing on a land map."""
    sc = st.sc
    areas = sc.areas
    troops = sc.troops
    return [u for u, w in st.loc.items() if w in areas and areas[w].map == map_id and troops[u].side == side]


def battles_over(st: St) -> None:
    """The end of a turn's battles: the South-Central closure (3.4) when the turn lists it.

    If the Germans hold every listed port, the listed nations' troops on the map are captured and the
    others (Norwegians) disband; otherwise the Allies score the bonus, all their troops there leave for
    good, and Bodø is barred next turn. Either way no battle is fought on the map any more.

    assumption: the ports must be German-held at the end of the turn's battles, however they were taken
    (digest 11.24); disbanded and evacuated troops are WITHDRAWN, for no VP.
    """
    sc = st.sc
    if not sc.has("norway_turns") or "scn_closure" not in sc.turn(st.turn).special:
        return
    v = sc.rules.value("map_closure")
    allies, axis = sc.sides
    map_id = str(v["map"])
    name = sc.maps[map_id]["name"]
    held = all(st.control[p] == axis for p in v["ports"])
    captured = set(v.get("capture_nations", []))
    if held and st.record_events:
        st.note(f"The Germans hold {', '.join(st.area_label(p) for p in v['ports'])}: the Allied campaign on the "
                f"{name} map is over")
    elif st.record_events:
        st.note(f"The Germans failed to take {', '.join(st.area_label(p) for p in v['ports'])}: the Allies leave "
                f"the {name} map")
    for u in troops_on(st, map_id, allies):
        if held and sc.troops[u].nation in captured:
            st.capture(u)
        else:
            st.loc[u] = WITHDRAWN
            if st.record_events:
                st.note(f"{st.name(u)} {'disbands' if held else 'is withdrawn'}: it leaves the campaign")
    if not held:
        pay(st, f"t{st.turn}:map_closure", allies, int(v.get("vp", 0)),
            f"the Germans did not take every port of the {name} map")
        if v.get("bar_bodo"):
            st.flags.bodo_barred = st.turn + 1
    st.flags.closed_maps = (*st.flags.closed_maps, map_id)


def turn_end(st: St) -> None:
    """The end of a turn: `hold` and `clear` bonuses and the wrap-up by sea (3.5)."""
    sc = st.sc
    if not sc.has("norway_turns"):
        return
    t = sc.turn(st.turn)
    for bonus in t.bonus:
        if bonus.when == "hold" and st.control[bonus.area] == bonus.side:
            pay(st, bonus.key, bonus.side, bonus.vp, f"{sc.side_names[bonus.side]} hold {st.area_label(bonus.area)}")
        elif bonus.when == "clear" and not troops_on(st, bonus.map, sc.other(bonus.side)):
            pay(st, bonus.key, bonus.side, bonus.vp,
                f"no {sc.side_names[sc.other(bonus.side)]} troop is left on the {sc.maps[bonus.map]['name']} map")
    if "narvik_wrapup" in t.special:
        wrapup(st)


def wrapup(st: St) -> None:
    """End of the campaign (3.5): the listed nations' troops on the map sail away (`WITHDRAWN`) if the
    Allies have sea control of the harbour, else they are captured."""
    sc = st.sc
    v = sc.rules.value("wrapup")
    allies = sc.sides[0]
    nations = set(v["nations"])
    by_sea = sea_control(st, str(v["harbour"]), allies)
    for u in troops_on(st, str(v["map"]), allies):
        if sc.troops[u].nation in nations:
            leave_by_sea(st, u, by_sea, "embarks and leaves Norway", "cannot embark without Allied sea control")


def update_bodo(st: St) -> None:
    """Whether the Germans may use Bodø next turn (7.6, 11.21): they hold every area of the map, or (in
    a turn listing `namsos_bodo`) they hold the port and trace to `trace_to` through German areas. A barred
    turn (the failed closure, 3.4) overrides both. The status is `st.flags.bodo`, for the Strategic
    Game too.

    assumption: the port must be German at the end of the turn's battles and the trace is made then, at the
    start of the Strategic Phase, so aircraft may re-base to Bodø in that phase's strategic moves and fly
    from it the next turn (digest 3.3 says 'the next strategic turn'); either route is enough (11.21).
    """
    sc = st.sc
    v = sc.rules.value("bodo")
    if not v:
        return
    axis = sc.sides[1]
    control = st.control
    adjacency = sc.adjacency
    map_id, port, home = v["map"], v["port"], v["trace_to"]
    whole = all(control[a.id] == axis for a in sc.areas.values() if a.map == map_id and a.id not in sc.no_stop)
    traced = ("namsos_bodo" in sc.turn(st.turn).special and control[port] == axis
              and home in reachable(port, lambda a: [n for n in adjacency[a] if control[n] == axis]))
    usable = (whole or traced) and st.flags.bodo_barred != st.turn + 1
    if usable != bool(st.flags.bodo) and st.record_events:
        st.note(f"Bodø {'opens to' if usable else 'is closed to'} the Germans for next turn")
    st.flags.bodo = usable


# ----- tabletop briefing (4, 10, EX-10) ------------------------------------------------------------------
def briefing(st: St, b: Battle) -> list[str]:
    """What the players need at the table: each side's Firestorm Troops (platoon, rating, points), its
    supply and force size, the Warriors who may join, naval gunfire, and the winter and terrain notes."""
    sc = st.sc
    if not sc.has("norway_briefing"):
        return []
    texts = sc.tables.get("briefing", {})
    m = map_of(st, b.to)
    out: list[str] = []
    low_high: Sequence[int] = sc.rules.value("force_points")
    for side, units, ok in ((b.attacker, b.att, b.att_supplied), (b.defender, b.dfn, b.def_supplied)):
        name = sc.side_names[side]
        items = [describe_item(st, b, side, u) for u in units] or ["no Firestorm Troops"]
        out.append(f"{name} Firestorm Troops: {'; '.join(items)}")
        if low_high:
            low, high = low_high[0], low_high[-1]
            face = b.supply_faces.get(side, 0)
            if not ok and face in sc.rules.value("reduced_faces"):
                share = int(sc.rules.value("reduced_percent"))
                out.append(f"{name} force: strength reduced by the supply roll: a {high}-pt force fights with "
                           f"{high * share // 100} pts ({low} -> {low * share // 100}) before Firestorm Troops, "
                           f"which are not reduced")
            else:
                out.append(f"{name} force: {low}-{high} pts before Firestorm Troops"
                           f"{'' if ok else ' (out of supply: see the supply roll)'}")
        for w in sc.rules.value("warriors"):
            if w["side"] == side and w["map"] == m:
                out.append(f"{name} may add the Warrior {w['name']} (+{w['cost']} pts) to {w['joins']}")
    for key in ("winter", f"terrain_{m}"):
        if key in texts:
            out.append(str(texts[key]))
    return out


def describe_item(st: St, b: Battle, side: str, item: str) -> str:
    sc = st.sc
    if item == NAVAL:
        bonus, ship = gunfire(st, b, side)
        text = str(sc.tables.get("briefing", {}).get(f"naval_{bonus}", "naval gunfire support"))
        return f"{text} ({ship}, +{bonus} in the General's Wargame)" if ship else text
    if is_token(item):
        air = sc.air.get(side)
        return f"{air.name} sortie" if item == AIR and air else item
    t = sc.troops[item]
    platoon = f", {t.platoon}" if t.platoon else ""
    return f"{t.name} ({t.rating}{platoon}, {t.points} pts)"


# ----- supply (7.2) and air drops (3.2) -------------------------------------------------------------
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

