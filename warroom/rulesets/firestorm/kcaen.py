"""The simulation kernel's Caen rules (`kernel.py`), after `dday.py`: the D-Day turn (Operation Tonga, Operation
Neptune on the beaches, the follow-up attacks and 21. Panzerdivision's counter-attack) and the Caumont Gap. Each
function mirrors the reference function of the same name."""

from __future__ import annotations

from warroom.rulesets.firestorm.kmap import K_PASS
from warroom.rulesets.firestorm.kstate import CAUMONT_KIND, NO_REQ, KPosition


def fare(k: KPosition, unit: int, area: int, fate: str) -> None:
    if fate == "lands":
        k.move_to(unit, area)
    elif fate == "pool":
        k.move_to(unit, k.m.POOL)
    else:
        k.capture(unit)


def apply_tonga(k: KPosition, row: int) -> None:
    unit, area, rows = k.m.tonga
    fate, taken = rows[row - 1]
    k.dice = 0
    k.dday_done = True
    if taken:
        k.set_control(area, 0)
    fare(k, unit, area, fate)


def apply_neptune(k: KPosition, row: int) -> None:
    m = k.m
    i = k.beach_idx
    beach, division, brigade = m.beaches[i]
    fate, attack_ft, until = m.neptune[row - 1]
    k.set_control(beach, 0)
    k.move_to(division, beach)
    fare(k, brigade, beach, fate)
    if attack_ft:
        k.exploits.append((beach, attack_ft))
    k.no_attack_from[beach] = until  # a clone has its own copy
    k.beach_idx = i + 1
    if i + 1 >= len(m.beaches):
        k.dice = 0
        k.dday_done = True


def prune_exploits(k: KPosition) -> None:
    exploits = k.exploits
    while exploits and not k.arrows(0, (exploits[0][0],), True):
        exploits.pop(0)


def pz21_legal(k: KPosition) -> list[int]:
    where = k.loc[k.m.pz21]
    if where >= k.m.na:
        return []
    return [*k.arrow_options(1, (where,)), K_PASS]


def begin_caumont(k: KPosition) -> None:
    m = k.m
    c = m.caumont
    assert c is not None
    _turn, _trigger, gap, target, att, dfn = c
    k.caumont_done = True
    control = k.control
    if control[gap] != 0:
        german = [n for n in m.adj[gap] if control[n] == 1]
        for u in k.units_at(gap, 1):
            spots = [n for n in german if k.has_room(n)]
            if spots:
                k.move_to(u, spots[0])
            elif german:
                k.destroy(u)
            else:
                k.capture(u)
        k.set_control(gap, 0)
    room_dfn = k.loc[dfn] == target or k.has_room(target)
    room_att = k.loc[att] == gap or k.has_room(gap)
    if k.loc[att] >= m.na or control[target] != 1 or k.loc[dfn] in (m.CAPTURED, m.WITHDRAWN) \
            or not room_dfn or not room_att:
        return
    k.move_to(att, gap)
    k.move_to(dfn, target)
    k.open_battle(CAUMONT_KIND, 0, gap, target, 1, NO_REQ)
    b = k.fought()
    b.att, b.dfn = (att,), (dfn,)
    b.att_supplied = k.supplied(0)[gap]
    b.def_supplied = k.supplied(1)[target]
