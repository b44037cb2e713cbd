"""The simulation kernel's placements (`kernel.py`): the turn's start with its arrivals (`steps.begin_turn`), the
Strategic Phase's reinforcements (`steps.begin_strategic`, `steps.fill_placing`), and where each troop may be
placed (`placement.py`, `caen.has_room`). Each function mirrors the reference function of the same name and offers
the same placements in the same order."""

from __future__ import annotations

from warroom.rulesets.firestorm.kstate import KPosition


def begin_turn(k: KPosition) -> None:
    m = k.m
    t = k.turn - 1
    for side in (0, 1):
        if m.has_air[side]:
            k.air_left[side] = m.air_sorties[side][t]
    k.carpet_left = m.turns[t].carpet
    k.moved = [False] * m.nt
    k.n_moved = 0
    k.returned = set()
    k.arrived = {}
    k.battle_no = 0
    k.battles_left = 0
    k.battles_total = 0
    for unit, areas, planning in m.t_arrivals[t]:
        if planning and k.loc[unit] == m.OFFMAP:
            k.move_to(unit, m.POOL)
            k.arrived[unit] = areas
    k.placing = list(k.arrived)
    prune_placing(k)


def reserve_room(k: KPosition, unit: int) -> bool:
    """`caen.has_room`: the Germans may put `unit` into the Tactical Reserve now."""
    m = k.m
    if not m.reserve_rule or m.side_of[unit] != 1 or k.turn >= m.n_turns:
        return False
    return k.counts[m.RESERVE] < m.turns[k.turn].reserve_limit


def candidate_areas(k: KPosition, side: int, listed: tuple[int, ...]) -> list[int]:
    control = k.control
    if not listed:
        return k.pool_spots(side)
    spots = [a for a in listed if control[a] == side]
    if not spots and k.m.fallback_adjacent:
        adj = k.m.adj
        spots = sorted({n for a in listed for n in adj[a] if control[n] == side}, key=k.m.arank.__getitem__)
    return spots


def placement_spots(k: KPosition, side: int, listed: tuple[int, ...]) -> list[int]:
    spots = candidate_areas(k, side, listed)
    limit = k.m.stacking
    if limit:
        counts = k.counts
        spots = [a for a in spots if counts[a] < limit]
    return spots


def has_spot(k: KPosition, side: int, listed: tuple[int, ...]) -> bool:
    """Whether `placement_spots(side, listed)` has any area."""
    limit = k.m.stacking
    counts = k.counts
    control = k.control
    if listed:
        if any(control[a] == side for a in listed):
            return not limit or any(control[a] == side and counts[a] < limit for a in listed)
        return bool(placement_spots(k, side, listed))
    if not limit:
        return bool(k.pool_spots(side))
    return any(counts[a] < limit for a in k.pool_spots(side))


def prune_placing(k: KPosition) -> None:
    """`steps.prune_placing`: troops with nowhere to go wait in the pool (`placement.placeable`)."""
    placing = k.placing
    if not placing:
        return
    side_of = k.m.side_of
    pool_ok = [-1, -1]  # per side: unknown, or whether its pool areas have room
    keep: list[int] | None = None
    for n, u in enumerate(placing):
        listed = k.arrived.get(u, ())
        side = side_of[u]
        if listed:
            ok = has_spot(k, side, listed)
        else:
            if pool_ok[side] < 0:
                pool_ok[side] = int(has_spot(k, side, ()))
            ok = pool_ok[side] == 1
        if not ok:
            ok = reserve_room(k, u)
        if not ok and keep is None:
            keep = placing[:n]
        elif ok and keep is not None:
            keep.append(u)
    if keep is not None:
        k.placing = keep


def place_options(k: KPosition, unit: int, spots: list[int] | None) -> list[int]:
    m = k.m
    if spots is None:
        spots = placement_spots(k, m.side_of[unit], k.arrived.get(unit, ()))
    base = m.PLACE + unit * (m.na + 1)
    out = [base + a for a in spots]
    if reserve_room(k, unit):
        out.append(base + m.na)
    return out


def legal_place(k: KPosition) -> list[int]:
    """`placement.legal_place` (with `next_up`)."""
    m = k.m
    side_of = m.side_of
    side = side_of[k.placing[0]]
    mine = [u for u in k.placing if side_of[u] == side]
    limit = m.stacking
    if k.arrived.get(mine[0]) or not limit:
        return place_options(k, mine[0], None)
    counts = k.counts
    spots = placement_spots(k, side, ())
    if sum(limit - counts[a] for a in spots) >= len(mine):
        return place_options(k, mine[0], spots)
    out: list[int] = []
    for u in mine:
        out.extend(place_options(k, u, None if k.arrived.get(u, ()) else spots))
    return out


def apply_place(k: KPosition, code: int) -> None:
    m = k.m
    unit, area = divmod(code - m.PLACE, m.na + 1)
    where = m.RESERVE if area == m.na else area
    k.move_to(unit, where)
    k.placing.remove(unit)
    if unit not in k.arrived:
        k.returned.add(unit)
    if where == m.RESERVE or (m.stacking and k.counts[where] >= m.stacking):
        prune_placing(k)  # only a place now full can leave a troop nowhere to go


def begin_strategic(k: KPosition) -> None:
    m = k.m
    t = k.turn - 1
    for u in m.t_withdraw[t]:
        if k.loc[u] != m.CAPTURED:
            k.move_to(u, m.WITHDRAWN)
    k.arrived = {}
    for unit, areas, planning in m.t_arrivals[t]:
        if not planning and k.loc[unit] == m.OFFMAP:
            k.move_to(unit, m.POOL)
            k.arrived[unit] = areas
    k.idx = 0
    fill_placing(k)


def fill_placing(k: KPosition) -> None:
    m = k.m
    order = m.reinforce_order
    side_of = m.side_of
    pool = m.POOL
    while k.idx < len(order):
        side = order[k.idx]
        fresh = [u for u in k.arrived if side_of[u] == side and k.loc[u] == pool]
        rest = [u for u, w in enumerate(k.loc) if w == pool and side_of[u] == side and u not in k.arrived]
        k.placing = fresh + rest
        prune_placing(k)
        if k.placing:
            return
        k.idx += 1
