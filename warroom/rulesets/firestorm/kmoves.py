"""The simulation kernel's strategic moves (`kernel.py`), after `moves.py` and `movebook.py`: one side's book of
moves for a Strategic Phase, which are open now, and the moves into full areas that leave a way to make room
(Caen 4.1). Each function mirrors the reference function of the same name and offers the same moves in the same
order."""

from __future__ import annotations

from bisect import bisect_left
from itertools import compress

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
    spans: list[tuple[int, list[int], list[int], int, int]] = []
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
            bits = 0
            for a in dests:
                bits |= 1 << a
            spans.append((u, [base + a for a in dests], dests, 1 << w, bits))
    book = KBook(side, k.turn, spans)
    k.book = book
    return book


def move_options(k: KPosition, side: int) -> list[int]:
    """`moves.move_options`: a new list of the open moves."""
    return list(listing(k, side))


def listing(k: KPosition, side: int) -> list[int]:
    """The open moves of `side`, listed once per move made: the book's list (do not change it).

    After a move that left the stacking gates as they were (`apply_move`), the listing is the last one without the
    mover's moves: one run of codes, since the book lists troop by troop in troop order."""
    book = move_book(k, side)
    version = k.n_moved
    seen = book.seen
    if seen is None or seen[0] != version:
        if seen is not None and seen[0] == version - 1 and seen[2] >= 0:
            last = seen[1]
            lo = k.m.MOVE + seen[2] * k.m.na
            i = bisect_left(last, lo)
            j = bisect_left(last, lo + k.m.na, i)
            seen = book.seen = (version, last[:i] + last[j:] if j > i else last, -1)
        else:
            seen = book.seen = (version, _options(k, book), -1)
    return seen[1]


def _options(k: KPosition, book: KBook) -> list[int]:
    """`moves._options` with `_open_into_full`: the unmoved troops' open moves, in menu order.

    A troop may enter an area with room. It may enter a full area only where revision 2's moves through full areas
    apply and a troop there could then move out: to an area with room (the area is open to all), or else to where
    the mover comes from. With areas as bits: `full`, `open_` (areas any troop may enter), and for each full area
    not open, the areas a troop may come from (`inward`)."""
    m = k.m
    limit = m.stacking
    moved = k.moved
    out: list[int] = []
    if not limit:
        for u, codes, _dests, _bit, _bits in book.spans:
            if not moved[u]:
                out.extend(codes)
        return out
    counts = k.counts
    loc = k.loc
    over = k.over
    if over >= 0:
        for u, codes, dests, _bit, _bits in book.spans:
            if not moved[u] and loc[u] == over:
                out.extend([codes[j] for j, d in enumerate(dests) if counts[d] < limit])
        return out
    full = 0
    for a in range(m.na):
        if counts[a] >= limit:
            full |= 1 << a
    open_ = ~full
    inward: dict[int, int] = {}
    if k.through_full:
        for u, _codes, _dests, bit, bits in book.spans:
            if moved[u] or not full & bit or open_ & bit:
                continue
            if bits & ~full:  # a troop here could move out to an area with room
                open_ |= bit
            else:
                w = loc[u]
                inward[w] = inward.get(w, 0) | bits
    for u, codes, dests, bit, bits in book.spans:
        if moved[u]:
            continue
        allowed = open_
        rest = bits & ~open_
        while rest:
            low = rest & -rest
            rest ^= low
            if inward.get(low.bit_length() - 1, 0) & bit:
                allowed |= low
        if not bits & ~allowed:
            out.extend(codes)
        elif bits & allowed:
            out.extend(compress(codes, [(allowed >> d) & 1 for d in dests]))  # the codes themselves, not copies
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
        limit = m.stacking
        counts = k.counts
        # whether every area's gate in `_options` stays as it was: each end stays below the limit
        same_gates = k.over < 0 and (not limit or (counts[frm] < limit and counts[to] + 1 < limit))
        k.move_to(u, to)
        k.moved[u] = True
        book = k.book
        if book is not None and same_gates:
            seen = book.seen
            if seen is not None and seen[0] == k.n_moved:
                book.seen = (seen[0], seen[1], u)
        k.n_moved += 1
        if k.through_full:
            if counts[to] > limit:
                k.over = to
            elif k.over == frm and counts[frm] <= limit:
                k.over = -1
    skip_idle_movers(k)
