"""The air phase (seed: Sequence of Play C: both players fly missions, fight in the air and return to base;
difference 4: anti-aircraft fire). The missions are rules.toml's [air] stand-in: ground support, interdiction
("bomb"), air transport and parachute drops ("carry") and air superiority ("cover").

The phasing player declares first, then the other player; then each mission is resolved in the order declared,
with a die wherever one decides it: turned back by the enemy's fighters holding the hex, by the enemy's
anti-aircraft fire there, and, for interdiction, whether the bombs disrupt.
"""

from __future__ import annotations

from warroom.core.dice import Roll
from warroom.core.state import CHANCE
from warroom.rulesets.narvik.actions import End, Fly
from warroom.rulesets.narvik.combat import disrupt
from warroom.rulesets.narvik.hexes import distance
from warroom.rulesets.narvik.movement import owned_by, settle_owner
from warroom.rulesets.narvik.scenario import OFF_MAP, AirType
from warroom.rulesets.narvik.state import NarvikState, other

CARRIED_KINDS = frozenset({"infantry", "mountain", "parachute", "ski", "machine_gun", "naval_infantry"})


HOME = {"german": "Germany", "allied": "Britain"}
"""Where an air unit whose airfield is lost flies back to when its side holds no other airfield."""


def arrive_air(st: NarvikState) -> None:
    """The phasing side's air units due this turn reach their bases; those whose airfield the enemy took return
    to the nearest airfield their side holds, or home (assumption in rules.toml [air_missions])."""
    for a in sorted(st.sc.air.values(), key=lambda x: x.id):
        if a.side == st.phasing and a.arrives == st.game_turn and a.id not in st.air_at:
            st.air_at[a.id] = a.base
    m = st.sc.map
    for aid, base in sorted(st.air_at.items()):
        a = st.sc.air[aid]
        if a.side != st.phasing or base in OFF_MAP or owned_by(st, m.place_hex(base)) == a.side:
            continue
        fields = sorted((distance(m.place_hex(base), p.hex), p.name) for p in m.places.values()
                        if "airfield" in p.kinds and owned_by(st, p.hex) == a.side)
        st.air_at[aid] = fields[0][1] if fields else HOME[a.side]
        st.note(f"{a.name} loses its airfield at {base} and flies back to {st.air_at[aid]}")


def base_hex(st: NarvikState, a: AirType) -> str:
    base = st.air_at[a.id]
    return st.sc.charts.air_bases[base] if base in OFF_MAP else st.sc.map.place_hex(base)


def ready(st: NarvikState, aid: str) -> bool:
    """An arrived air unit of the declaring side that has not flown, based off the map or on an airfield its side
    holds."""
    a = st.sc.air[aid]
    if aid not in st.air_at or aid in st.flown or a.side != st.declaring:
        return False
    base = st.air_at[aid]
    return base in OFF_MAP or owned_by(st, st.sc.map.place_hex(base)) == a.side


def battles(st: NarvikState) -> list[str]:
    """Hexes where a battle will be fought this combat phase."""
    return sorted(st.occupied(st.phasing) & st.occupied(other(st.phasing)))


def carried(st: NarvikState, frm: str) -> list[str]:
    """Units a transport may take from an airfield hex: the phasing side's unmoved foot battalions and companies."""
    return [u for u in st.units_in(frm, st.phasing) if u not in st.absorbed and u not in st.moved
            and not st.types[u].motorized
            and st.types[u].kind in CARRIED_KINDS and st.types[u].size in ("company", "battalion")]


def air_legal(st: NarvikState) -> list[Fly | End]:
    out: list[Fly | End] = []
    fights = battles(st)
    enemy = st.occupied(other(st.declaring))
    places = sorted({p.hex for p in st.sc.map.places.values()})
    for aid in sorted(st.air_at):
        if not ready(st, aid):
            continue
        a = st.sc.air[aid]
        home = base_hex(st, a)
        near = [h for h in fights if distance(home, h) <= a.range]
        if a.kind == "fighter":
            out.extend(Fly(aid, "cover", h) for h in sorted(set(near) | {h for h in enemy
                                                                         if distance(home, h) <= a.range}))
        elif a.kind in ("bomber", "dive_bomber"):
            out.extend(Fly(aid, "support", h) for h in near)
            out.extend(Fly(aid, "bomb", h) for h in sorted(enemy) if distance(home, h) <= a.range)
        elif a.kind == "transport" and st.declaring == st.phasing:
            out.extend(transport_options(st, a, home, places, enemy))
    out.append(End())
    return out


def transport_options(st: NarvikState, a: AirType, home: str, places: list[str], enemy: set[str]) -> list[Fly]:
    """Airlanding from one friendly airfield to another within range, or a parachute drop on a place within range
    free of the enemy; a transport based off the map picks up at any friendly airfield within its range."""
    out = []
    fields = [p.hex for p in st.sc.map.places.values() if "airfield" in p.kinds and owned_by(st, p.hex) == a.side
              and p.hex not in enemy]
    taken = {m[3] for m in st.missions}
    starts = [home] if st.air_at[a.id] not in OFF_MAP else [f for f in fields if distance(home, f) <= a.range]
    for frm in sorted(set(starts)):
        for uid in carried(st, frm):
            if uid in taken:
                continue
            for to in sorted(fields):
                if to != frm and distance(frm, to) <= a.range:
                    out.append(Fly(a.id, "carry", to, uid))
            if st.types[uid].kind == "parachute":
                out.extend(Fly(a.id, "carry", h, uid) for h in places
                           if h not in enemy and h not in fields and h != frm and distance(frm, h) <= a.range)
    return out


def apply_air(st: NarvikState, action: Fly | End) -> None:
    if isinstance(action, End):
        if st.declaring == st.phasing:
            st.declaring = other(st.phasing)
        else:
            st.declaring = ""
            st.resolving = 0
            next_roll(st)
        return
    st.flown.add(action.air)
    st.missions.append((action.air, action.mission, action.hex, action.unit))


def holds_air(st: NarvikState, hid: str) -> str:
    """The side whose fighters hold the air over a hex this phase ('' when neither has more)."""
    count = {s: 0 for s in st.sc.sides}
    for aid, mission, h, _ in st.missions:
        if mission == "cover" and h == hid:
            count[st.sc.air[aid].side] += 1
    a, b = st.sc.sides
    return a if count[a] > count[b] else (b if count[b] > count[a] else "")


def flak(st: NarvikState, side: str, hid: str) -> bool:
    return any(st.types[u].kind == "antiaircraft" for u in st.units_in(hid, other(side)))


def stages(st: NarvikState, index: int) -> list[str]:
    """The dice a mission needs, in order: turned back by the fighters holding the hex ('abort'), by
    anti-aircraft fire ('flak'), and for interdiction whether the bombs disrupt ('bomb'). Air superiority
    missions need none: they count where the fighters are."""
    aid, mission, hid, _ = st.missions[index]
    side = st.sc.air[aid].side
    if mission == "cover":
        return []
    out = []
    if holds_air(st, hid) == other(side):
        out.append("abort")
    if flak(st, side, hid):
        out.append("flak")
    if mission == "bomb":
        out.append("bomb")
    return out


def next_roll(st: NarvikState) -> None:
    """Resolve missions in order until one needs a die (`air_roll` says which), or all are done."""
    while st.resolving < len(st.missions):
        needed = stages(st, st.resolving)
        if needed:
            st.air_roll = needed[0]
            return
        if st.missions[st.resolving][1] != "cover":
            succeed(st, st.resolving)
        st.resolving += 1
    st.air_roll = ""


def succeed(st: NarvikState, index: int) -> None:
    aid, mission, hid, unit = st.missions[index]
    a = st.sc.air[aid]
    if mission == "support":
        here = st.support.setdefault(hid, {})
        here[a.side] = here.get(a.side, 0) + 1
        st.note(f"{a.name} supports the battle in {st.hex_name(hid)}")
    elif mission == "carry" and unit in st.pos:
        st.pos[unit] = hid
        st.moved.add(unit)
        settle_owner(st, hid)
        st.changed()
        st.note(f"{a.name} flies {st.name(unit)} to {st.hex_name(hid)}")


def apply_air_roll(st: NarvikState, face: int) -> None:
    """The die for the mission being resolved: turned back, or on to its next die or its effect."""
    c = st.sc.charts
    aid, _, hid, _ = st.missions[st.resolving]
    a = st.sc.air[aid]
    stage = st.air_roll
    if stage == "abort" and face in c.abort_roll:
        st.note(f"die {face}: {a.name} is turned back by the enemy's fighters over {st.hex_name(hid)}")
    elif stage == "flak" and face in c.anti_aircraft_roll:
        st.note(f"die {face}: anti-aircraft fire turns {a.name} back over {st.hex_name(hid)}")
    elif stage == "bomb":
        if face in (c.dive_bomb_roll if a.kind == "dive_bomber" else c.bomb_roll):
            st.note(f"die {face}: {a.name} bombs {st.hex_name(hid)}")
            disrupt(st, st.units_in(hid, other(a.side)))
        else:
            st.note(f"die {face}: {a.name}'s bombs miss in {st.hex_name(hid)}")
    else:
        needed = stages(st, st.resolving)
        following = needed[needed.index(stage) + 1:]
        if following:
            st.air_roll = following[0]
            return
        succeed(st, st.resolving)
    st.resolving += 1
    next_roll(st)


def begin_air(st: NarvikState) -> None:
    st.flown = set()
    st.missions = []
    st.support = {}
    st.resolving = 0
    st.air_roll = ""
    st.declaring = st.phasing
    skip_idle(st)


def skip_idle(st: NarvikState) -> None:
    """A side with no mission to fly declares nothing: the phase moves on without asking it."""
    while st.declaring and air_legal(st) == [End()]:
        apply_air(st, End())


def air_actor(st: NarvikState) -> str:
    return st.declaring or CHANCE


def apply_air_step(st: NarvikState, action: Fly | End | Roll) -> None:
    if isinstance(action, Roll):
        apply_air_roll(st, action.values[0])
    else:
        apply_air(st, action)
        skip_idle(st)


def air_over(st: NarvikState) -> bool:
    return not st.declaring and st.resolving >= len(st.missions)


def fly_problem(st: NarvikState, action: Fly) -> str:
    """Why an air mission is refused, in words."""
    a = st.sc.air.get(action.air)
    if a is None:
        return f"there is no air unit {action.air!r}"
    if a.side != st.declaring:
        return f"{a.name} is not the {st.sc.side_names.get(st.declaring, st.declaring)}' to fly now"
    if action.air not in st.air_at:
        return f"{a.name} has not arrived yet (turn {a.arrives})"
    if action.air in st.flown:
        return f"{a.name} has flown this phase"
    if not ready(st, action.air):
        return f"{a.name}'s airfield is not its side's now"
    wanted = {"fighter": "cover", "bomber": "support or bomb", "dive_bomber": "support or bomb",
              "transport": "carry"}[a.kind]
    if action.mission not in wanted.split(" or "):
        return f"{a.name} is a {a.kind.replace('_', ' ')}: it flies {wanted} missions"
    return (f"{a.name} cannot fly {action.mission} to {st.hex_name(action.hex)}: out of its range of {a.range} "
            "hexes, or nothing to do there (support: a battle this phase; bomb: enemy units; carry: an unmoved foot "
            "unit from a friendly airfield)")
