"""The simulation kernel's strategic moves (`kernel.py`), after `moves.py` and `movebook.py`: one side's book of
moves for a Strategic Phase, which are open now, and the moves into full areas that leave a way to make room
(Caen 4.1). Each function mirrors the reference function of the same name and offers the same moves in the same
order."""

from __future__ import annotations

from warroom.rulesets.firestorm.kmap import K_PASS
from warroom.rulesets.firestorm.kstate import KBook, KPosition


def skip_idle_movers(k: KPosition) -> None:
    order = k.m.move_order
    while k.idx < len(order) and not can_move(k, order[k.idx]):
        k.idx += 1


def overfull_now(k: KPosition) -> int:
    """The area over the stacking limit, or -1, read from the position (`moves._overfull`); `Kernel.over` keeps
    it during the strategic moves."""
    if not k.through_full:
        return -1
    limit = k.m.stacking
    counts = k.counts
    for a in range(k.m.na):
        if counts[a] > limit:
            return a
    return -1


def move_book(k: KPosition, side: int) -> KBook:
    """`moves.move_book`."""
    book = k.book
    if book is not None and book.side == side and book.turn == k.turn:
        return book
    m = k.m
    control = k.control
    na = m.na
    spans: list[tuple[int, list[int], list[int], int]] = []
    side_of = m.side_of
    returned = k.returned
    redeploy = m.redeploy_returned
    for u, w in enumerate(k.loc):
        if w >= na or side_of[u] != side:
            continue
        if redeploy and u in returned:
            supplied = k.supplied(side)
            dests = [a for a in m.by_rank if a != w and control[a] == side and supplied[a]]
        else:
            dests = k.reach(side, w, m.move_range)
        if dests:
            base = m.MOVE + u * na
            spans.append((u, [base + a for a in dests], dests, 1 << w))
    book = KBook(side, k.turn, spans)
    k.book = book
    return book


def move_options(k: KPosition, side: int) -> list[int]:
    """`moves.move_options`: a new list of the open moves."""
    return list(listing(k, side))


def listing(k: KPosition, side: int) -> list[int]:
    """The open moves of `side`, listed once per move made: the book's list (do not change it)."""
    book = move_book(k, side)
    version = k.n_moved
    seen = book.seen
    if seen is None or seen[0] != version:
        seen = book.seen = (version, _options(k, book))
    return seen[1]


def _options(k: KPosition, book: KBook) -> list[int]:
    """`moves._options` with `_open_into_full`: the unmoved troops' open moves, in menu order.

    Each area gets a gate: all bits set (-1) where any troop may enter (it has room, or a troop there could then
    move out to an area with room), the bits of the areas a troop may come from (a troop there could move to where
    the mover comes from), or 0. A troop's move enters where the gate has its area's bit (`spans`)."""
    limit = k.m.stacking
    moved = k.moved
    out: list[int] = []
    if not limit:
        for u, codes, _dests, _bit in book.spans:
            if not moved[u]:
                out.extend(codes)
        return out
    counts = k.counts
    loc = k.loc
    over = k.over
    if over >= 0:
        for u, codes, dests, _bit in book.spans:
            if not moved[u] and loc[u] == over:
                out.extend([codes[j] for j, d in enumerate(dests) if counts[d] < limit])
        return out
    na = k.m.na
    gate = [-1 if counts[a] < limit else 0 for a in range(na)]
    if k.through_full:
        for u, _codes, dests, _bit in book.spans:
            if moved[u]:
                continue
            where = loc[u]
            mask = gate[where]
            if mask == -1:
                continue  # room there, or already open to all
            for t in dests:
                if counts[t] < limit:
                    mask = -1
                    break
                mask |= 1 << t
            gate[where] = mask
    for u, codes, dests, bit in book.spans:
        if moved[u]:
            continue
        for j in range(len(dests)):
            if gate[dests[j]] & bit:
                out.append(codes[j])
    return out


def can_move(k: KPosition, side: int) -> bool:
    """`moves.can_move`: an area over the limit must be emptied, or a move is open."""
    if k.over >= 0:
        return True
    return bool(listing(k, side))


def apply_move(k: KPosition, code: int) -> None:
    if code == K_PASS:
        k.idx += 1
    else:
        m = k.m
        u, to = divmod(code - m.MOVE, m.na)
        frm = k.loc[u]
        k.move_to(u, to)
        k.moved[u] = True
        k.n_moved += 1
        if k.through_full:
            limit = m.stacking
            if k.counts[to] > limit:
                k.over = to
            elif k.over == frm and k.counts[frm] <= limit:
                k.over = -1
    skip_idle_movers(k)
