"""The simulation kernel's strategic moves (`kernel.py`), after `moves.py` and `movebook.py`: one side's book of
moves for a Strategic Phase, which are open now, and the moves into full areas that leave a way to make room
(Caen 4.1). Each function mirrors the reference function of the same name and offers the same moves in the same
order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.rulesets.firestorm.kmap import K_PASS

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.kernel import Kernel


class KBook:
    """The strategic moves of one side in one Strategic Phase (`movebook.MoveBook`): every move ignoring stacking,
    as each troop's moves in menu order (`spans`: the troop, the codes of its moves and their destinations, by
    area id), and the last listing of the open moves, made once per move made (`seen`)."""

    __slots__ = ("seen", "side", "spans", "turn")

    def __init__(self, side: int, turn: int, spans: list[tuple[int, list[int], list[int]]]) -> None:
        self.side = side
        self.turn = turn
        self.spans = spans
        self.seen: tuple[int, list[int]] | None = None

    def copy(self) -> KBook:
        new = KBook(self.side, self.turn, self.spans)
        new.seen = self.seen
        return new


def skip_idle_movers(k: Kernel) -> None:
    order = k.m.move_order
    while k.idx < len(order) and not can_move(k, order[k.idx]):
        k.idx += 1


def overfull_now(k: Kernel) -> int:
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


def move_book(k: Kernel, side: int) -> KBook:
    """`moves.move_book`."""
    book = k.book
    if book is not None and book.side == side and book.turn == k.turn:
        return book
    m = k.m
    control = k.control
    na = m.na
    spans: list[tuple[int, list[int], list[int]]] = []
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
            spans.append((u, [base + a for a in dests], dests))
    book = KBook(side, k.turn, spans)
    k.book = book
    return book


def move_options(k: Kernel, side: int) -> list[int]:
    """`moves.move_options`: a new list of the open moves."""
    return list(listing(k, side))


def listing(k: Kernel, side: int) -> list[int]:
    """The open moves of `side`, listed once per move made: the book's list (do not change it)."""
    book = move_book(k, side)
    version = k.n_moved
    seen = book.seen
    if seen is None or seen[0] != version:
        seen = book.seen = (version, _options(k, book))
    return seen[1]


def _options(k: Kernel, book: KBook) -> list[int]:
    """`moves._options` with `_open_into_full`: the unmoved troops' open moves, in menu order. A move into a full
    area is open when a troop there could then move out to an area with room (`roomy`), or back to where the mover
    comes from (`exits`, a bit per area)."""
    limit = k.m.stacking
    moved = k.moved
    out: list[int] = []
    if not limit:
        for u, codes, _dests in book.spans:
            if not moved[u]:
                out.extend(codes)
        return out
    counts = k.counts
    loc = k.loc
    over = k.over
    if over >= 0:
        for u, codes, dests in book.spans:
            if not moved[u] and loc[u] == over:
                out.extend([codes[j] for j, d in enumerate(dests) if counts[d] < limit])
        return out
    na = k.m.na
    roomy = [False] * na
    exits = [0] * na
    if k.through_full:
        for u, _codes, dests in book.spans:
            if moved[u]:
                continue
            where = loc[u]
            if counts[where] < limit or roomy[where]:
                continue
            mask = exits[where]
            for t in dests:
                if counts[t] < limit:
                    roomy[where] = True
                    break
                mask |= 1 << t
            exits[where] = mask
    for u, codes, dests in book.spans:
        if moved[u]:
            continue
        bit = 1 << loc[u]
        for j in range(len(dests)):
            d = dests[j]
            if counts[d] < limit or roomy[d] or exits[d] & bit:
                out.append(codes[j])
    return out


def can_move(k: Kernel, side: int) -> bool:
    """`moves.can_move`: an area over the limit must be emptied, or a move is open."""
    if k.over >= 0:
        return True
    return bool(listing(k, side))


def apply_move(k: Kernel, code: int) -> None:
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
