"""The book of one side's strategic moves in one Strategic Phase (`moves.py` keeps it; the position holds it)."""

from __future__ import annotations

from warroom.rulesets.firestorm.actions import Move


class MoveBook:
    """The strategic moves of one side in one Strategic Phase: every move ignoring stacking (`menu`, with its
    indices by troop and, under a stacking limit, by destination), and which are `open` now: the troop has not
    moved and the destination has room (or there is no stacking limit). Control does not change during strategic
    moves and a troop moves once, so the menu holds for the whole phase; `open` is built from the position once,
    then kept up to date by `after_move` at each move, which changes only the moving troop's moves and those into
    the two areas it leaves and enters. `seen` keeps the last listing: (troops moved so far, the area over the
    limit or '', the moves open), good until the next move. A clone copies `open` (the rest is shared: it never
    changes)."""

    __slots__ = ("by_unit", "into", "key", "menu", "open", "seen")

    def __init__(self, key: tuple[str, int], menu: tuple[Move, ...], open_: list[bool],
                 by_unit: dict[str, range], into: dict[str, tuple[int, ...]]) -> None:
        self.key = key
        self.menu = menu
        self.open = open_
        self.by_unit = by_unit
        self.into = into
        self.seen: tuple[int, str, tuple[Move, ...]] | None = None

    def copy(self) -> MoveBook:
        new = MoveBook(self.key, self.menu, list(self.open), self.by_unit, self.into)
        new.seen = self.seen
        return new

    def after_move(self, unit: str, frm: str, to: str, counts: dict[str, int], moved: set[str], limit: int) -> None:
        """`unit` has just moved from `frm` to `to` and is among the `moved`; `counts` are the troops per area now
        and `limit` the stacking limit (0: none)."""
        is_open = self.open
        for i in self.by_unit.get(unit, ()):
            is_open[i] = False
        if not limit:
            return
        menu = self.menu
        for area in (frm, to):
            room = counts.get(area, 0) < limit
            for i in self.into.get(area, ()):
                is_open[i] = room and menu[i].unit not in moved
