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
    """The strategic moves of one side in one Strategic Phase (`movebook.MoveBook`): every move ignoring stacking
    (`menu`, each with its troop and destination; a troop's moves come together, `spans` in menu order), with the
    indices of the moves into each area, and the last listing. Which moves are open is read from the position
    when the moves are listed, once per move made (`seen`)."""

    __slots__ = ("dest", "into", "menu", "seen", "side", "spans", "turn")

    def __init__(self, side: int, turn: int, menu: list[int], dest: list[int], spans: list[tuple[int, int, int]],
                 into: dict[int, list[int]]) -> None:
        self.side = side
        self.turn = turn
        self.menu = menu  # move codes
        self.dest = dest  # the destination of each move
        self.spans = spans  # (troop, first move, last move + 1), in menu order
        self.into = into
        self.seen: tuple[int, list[int]] | None = None

    def copy(self) -> KBook:
        new = KBook(self.side, self.turn, self.menu, self.dest, self.spans, self.into)
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
    menu: list[int] = []
    dest: list[int] = []
    spans: list[tuple[int, int, int]] = []
    by_area: dict[int, list[int]] = {}
    for u, w in enumerate(k.loc):
        if w >= na or m.side_of[u] != side:
            continue
        if u in k.returned and m.redeploy_returned:
            supplied = k.supplied(side)
            dests = sorted((a for a in range(na) if a != w and control[a] == side and a in supplied),
                           key=m.arank.__getitem__)
        else:
            got = by_area.get(w)
            if got is None:
                got = by_area[w] = k.reach(side, w, m.move_range)
            dests = got
        if not dests:
            continue
        start = len(menu)
        base = m.MOVE + u * na
        for a in dests:
            menu.append(base + a)
            dest.append(a)
        spans.append((u, start, len(menu)))
    into: dict[int, list[int]] = {}
    if m.stacking:
        for i, a in enumerate(dest):
            into.setdefault(a, []).append(i)
    book = KBook(side, k.turn, menu, dest, spans, into)
    k.book = book
    return book


def move_options(k: Kernel, side: int) -> list[int]:
    """`moves.move_options`: listed once per move made."""
    book = move_book(k, side)
    version = len(k.moved)
    seen = book.seen
    if seen is None or seen[0] != version:
        seen = book.seen = (version, _options(k, book))
    return list(seen[1])


def _options(k: Kernel, book: KBook) -> list[int]:
    """`moves._options` with `_open_into_full`, in one pass over the unmoved troops' moves."""
    m = k.m
    menu = book.menu
    dest = book.dest
    limit = m.stacking
    moved = k.moved
    out: list[int] = []
    if not limit:
        for u, s, e in book.spans:
            if u not in moved:
                out.extend(menu[s:e])
        return out
    counts = k.counts
    loc = k.loc
    over = k.over
    if over >= 0:
        for u, s, e in book.spans:
            if u not in moved and loc[u] == over:
                for i in range(s, e):
                    if counts[dest[i]] < limit:
                        out.append(menu[i])
        return out
    opened: dict[int, frozenset[int] | None] = {}
    if k.through_full:
        full = {a for a in book.into if counts[a] >= limit}
        if full:
            here: dict[int, list[tuple[int, int]]] = {}
            for u, s, e in book.spans:
                if u not in moved and loc[u] in full:
                    here.setdefault(loc[u], []).append((s, e))
            for area, ranges in here.items():
                tos = [dest[i] for s, e in ranges for i in range(s, e)]
                if any(counts[t] < limit for t in tos):
                    opened[area] = None  # a troop there can make room: every move in is open
                else:
                    opened[area] = frozenset(tos)  # only from an area a troop there could then move into
    for u, s, e in book.spans:
        if u in moved:
            continue
        where = loc[u]
        for i in range(s, e):
            d = dest[i]
            if counts[d] < limit:
                out.append(menu[i])
            elif d in opened:
                exits = opened[d]
                if exits is None or where in exits:
                    out.append(menu[i])
    return out


def can_move(k: Kernel, side: int) -> bool:
    """`moves.can_move`: an area over the limit must be emptied, or a move is open."""
    if k.over >= 0:
        return True
    return bool(move_options(k, side))


def apply_move(k: Kernel, code: int) -> None:
    if code == K_PASS:
        k.idx += 1
    else:
        m = k.m
        u, to = divmod(code - m.MOVE, m.na)
        frm = k.loc[u]
        k.move_to(u, to)
        k.moved.add(u)
        if k.through_full:
            limit = m.stacking
            if k.counts[to] > limit:
                k.over = to
            elif k.over == frm and k.counts[frm] <= limit:
                k.over = -1
    skip_idle_movers(k)
