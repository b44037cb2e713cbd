"""Strategic moves (core 2; Caen 4.9; Lorraine 4.6), with stacking while moving (Caen 4.1).

Caen's stacking limit may be exceeded while troops move, as long as it holds when the step ends. So a troop may
move into a full area when one of the troops there can then move out to an area with room (two full areas can
swap troops), and until one does, moving a troop out of that area is the only move, and the step cannot end.

assumption: one area at a time may be over the limit, by one troop, and only when a way back within it exists.
The book only asks that the limit hold at the end; this keeps every sequence of moves able to end within it,
so no player can be stranded over the limit with no legal move.

`move_options` lists the moves fast for the bots; `move_problem` says why one move is not legal. The
conformance harness (tests/property/test_conformance.py) checks that the two agree.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING

from warroom.rulesets.firestorm.actions import Move
from warroom.rulesets.firestorm.model import REVISION
from warroom.rulesets.firestorm.movebook import MoveBook

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState


def move_destinations(st: FirestormState, unit: str, counts: dict[str, int] | None = None) -> list[str]:
    """Strategic move destinations with room under stacking (core 2; Caen 4.9; Lorraine 4.6).

    `counts` (troops per area) may be passed in when many units are asked about at once.
    """
    sc = st.sc
    side = sc.troops[unit].side
    start = st.loc[unit]
    control = st.control
    if unit in st.returned and sc.rules.redeploy_returned:
        supplied = st.supplied_areas(side)
        dests = sorted(a for a in sc.areas if a != start and control[a] == side and a in supplied
                       and a not in sc.no_stop)
    else:
        dests = list(st.reach(side, start, sc.rules.move_range))
    limit = sc.rules.stacking
    if limit:
        if counts is None:
            counts = st.stack_counts()
        dests = [a for a in dests if counts.get(a, 0) < limit]
    return dests


def through_full(st: FirestormState) -> bool:
    """Whether moves may pass through a full area: the rules' revision 2 on (a game begun before keeps its
    rules, `model.REVISION`)."""
    return bool(st.sc.rules.stacking) and st.params.get("revision", REVISION) >= 2


def overfull(st: FirestormState) -> str:
    """The area a strategic move has taken over the stacking limit, or '' (Caen 4.1)."""
    if not through_full(st):
        return ""
    book = st.flags.move_menu
    if book is not None and book.seen is not None and book.seen[0] == len(st.moved) and book.key[1] == st.turn:
        return book.seen[1]  # found when the moves were last listed, and nothing has moved since
    return _overfull(st)


def _overfull(st: FirestormState) -> str:
    limit = st.sc.rules.stacking
    areas = st.sc.areas
    for where, n in st.loc.counts.items():
        if n > limit and where in areas:
            return where
    return ""


def move_options(st: FirestormState, side: str) -> list[Move]:
    """Every strategic move open to `side` now: its menu for this step, less moved troops and full areas, a full
    area only where a troop there could then move out to make room; while an area is over the limit, only the
    moves that take a troop out of it into an area with room. Listed once per move made (`MoveBook.seen`)."""
    book = move_book(st, side)
    version = len(st.moved)
    seen = book.seen
    if seen is None or seen[0] != version:
        over = _overfull(st) if through_full(st) else ""
        seen = book.seen = (version, over, tuple(_options(st, book, over)))
    return list(seen[2])


def _options(st: FirestormState, book: MoveBook, over: str) -> list[Move]:
    menu = book.menu
    limit = st.sc.rules.stacking
    if not limit:
        return list(compress(menu, book.open))
    counts = st.loc.counts
    if over:
        loc = st.loc
        moved = st.moved
        return [m for m in menu if m.unit not in moved and loc[m.unit] == over and counts.get(m.to, 0) < limit]
    if not through_full(st):
        return list(compress(menu, book.open))
    into = book.into
    full = [a for a, n in counts.items() if n >= limit and a in into]
    if not full:
        return list(compress(menu, book.open))
    mask = list(book.open)
    _open_into_full(st, book, full, mask)
    return list(compress(menu, mask))


def _open_into_full(st: FirestormState, book: MoveBook, full: list[str], mask: list[bool]) -> None:
    """Mark in `mask` the unmoved troops' moves into the `full` areas that leave a way to make room: a troop
    there could then move out to an area with room, or to the area the mover came from (Caen 4.1)."""
    moved = st.moved
    loc = st.loc
    counts = loc.counts
    limit = st.sc.rules.stacking
    menu = book.menu
    by_unit = book.by_unit
    here: dict[str, list[str]] = {}
    for u in by_unit:
        if u not in moved:
            here.setdefault(loc[u], []).append(u)
    for area in full:
        tos = [menu[i].to for u in here.get(area, ()) for i in by_unit[u]]
        if not tos:
            continue
        if any(counts.get(t, 0) < limit for t in tos):
            for i in book.into[area]:
                if menu[i].unit not in moved:
                    mask[i] = True
            continue
        exits = set(tos)
        for i in book.into[area]:
            unit = menu[i].unit
            if unit not in moved and loc[unit] in exits:
                mask[i] = True


def makes_room(st: FirestormState, book: MoveBook, move: Move) -> bool:
    """Whether, after `move` into its full area, a troop there could move out to an area with room, or to the area
    the mover came from (it has room by then)."""
    mask = [False] * len(book.menu)
    _open_into_full(st, book, [move.to], mask)
    return any(mask[i] for i in book.into.get(move.to, ()) if book.menu[i] == move)


def can_move(st: FirestormState, side: str) -> bool:
    """Whether `side` has a strategic move left (answered without listing them where it can be)."""
    if st.sc.rules.stacking and overfull(st):
        return True  # a way out was there when the area went over, and nothing has moved since
    if True in move_book(st, side).open:
        return True
    return through_full(st) and bool(move_options(st, side))


def move_problem(st: FirestormState, action: Move) -> str:
    """Why `action` is not a legal strategic move now ('' if it is): the message a refusal gives."""
    sc = st.sc
    unit, to = action.unit, action.to
    side = st.current_player()
    if unit not in sc.troops:
        return f"unknown unit {unit!r}"
    if to not in sc.areas:
        return f"unknown area {to!r}"
    if sc.troops[unit].side != side:
        return f"{unit} is not one of your troops"
    if unit in st.moved:
        return f"{unit} has already made its strategic move this turn"
    if st.loc[unit] not in sc.areas:
        return f"{unit} is not on the map"
    if st.control[to] != side:
        return f"{to} is not held by your side"
    limit = sc.rules.stacking
    over = overfull(st)
    if over and st.loc[unit] != over:
        return (f"{over} holds more than {limit} troops after your last move: move one of its troops out first "
                "(the stacking limit must hold when the moves end)")
    menu = move_book(st, side).menu
    if st.loc[unit] == to:
        return f"{unit} is already in {to}"
    if to in sc.no_stop:
        return f"troops pass through {to} but may not stop there"
    if not any(m.unit == unit and m.to == to for m in menu):
        return f"{to} is more than {sc.rules.move_range} step(s) through friendly areas from {st.loc[unit]}"
    if limit and st.loc.counts.get(to, 0) >= limit:
        if over:
            return f"{to} is full as well: move the troop out of {over} into an area with room"
        if not through_full(st):
            return f"{to} already holds {limit} troops (stacking)"
        if not makes_room(st, move_book(st, side), action):
            return (f"{to} already holds {limit} troops, and none of them could then move out to make room "
                    "(stacking)")
    return ""


def pass_problem(st: FirestormState) -> str:
    """Why the mover may not end its strategic moves now ('' if it may)."""
    over = overfull(st)
    if over:
        return (f"{over} holds more than {st.sc.rules.stacking} troops: move one of them out before ending the "
                "moves (the stacking limit must hold when the step ends)")
    return ""


def move_book(st: FirestormState, side: str) -> MoveBook:
    """The book of `side`'s strategic moves for this Strategic Phase, made the first time it is asked for."""
    key = (side, st.turn)
    book = st.flags.move_menu
    if book is not None and book.key == key:
        return book
    menu, by_unit = _move_menu(st, side)
    limit = st.sc.rules.stacking
    into: dict[str, tuple[int, ...]] = {}
    if limit:  # only stacking makes a move's destination matter after the phase begins
        spots: dict[str, list[int]] = {}
        for i, m in enumerate(menu):
            spots.setdefault(m.to, []).append(i)
        into = {a: tuple(ix) for a, ix in spots.items()}
    counts = st.loc.counts
    moved = st.moved
    open_ = [m.unit not in moved and (not limit or counts.get(m.to, 0) < limit) for m in menu]
    book = MoveBook(key, menu, open_, by_unit, into)
    st.flags.move_menu = book
    return book


def after_move(st: FirestormState, unit: str, frm: str) -> None:
    """Keep the mover's book up to date after `unit` moved out of `frm`."""
    book = st.flags.move_menu
    if book is not None and book.key == (st.sc.troops[unit].side, st.turn):
        book.after_move(unit, frm, st.loc[unit], st.loc.counts, st.moved, st.sc.rules.stacking)


def _move_menu(st: FirestormState, side: str) -> tuple[tuple[Move, ...], dict[str, range]]:
    """All moves of `side`'s troops ignoring stacking, in the order they are offered, with where each troop's
    moves lie in that list (a troop's moves come together)."""
    troops = st.sc.troops
    control = st.control
    steps = st.sc.rules.move_range
    out: list[Move] = []
    spans: dict[str, range] = {}
    by_area: dict[str, tuple[str, ...]] = {}
    for u, where in st.loc.items():
        if where not in control or troops[u].side != side:
            continue
        if u in st.returned and st.sc.rules.redeploy_returned:
            dests: tuple[str, ...] | list[str] = move_destinations(st, u, {})
        else:
            got = by_area.get(where)
            if got is None:
                got = by_area[where] = st.reach(side, where, steps)
            dests = got
        row = _MOVES.get(u)
        if row is None:
            row = _MOVES[u] = {}
        start = len(out)
        for a in dests:
            m = row.get(a)
            if m is None:
                m = row[a] = Move(u, a)
            out.append(m)
        if dests:
            spans[u] = range(start, len(out))
    return tuple(out), spans


_MOVES: dict[str, dict[str, Move]] = {}
"""Interned `Move` values by unit and destination: equal actions are built once (bots ask often)."""
