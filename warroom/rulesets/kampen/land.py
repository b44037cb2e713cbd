"""The land decisions of a round: moving battalions (4.1) and placing new ones (4.3; advanced game 8.3).

A battalion moves one area a round; one that arrived this round moves no more. New battalions go where their
country may place them: Germany on the coast of sea areas I and II (in the advanced game, from its ships; with
Transportfly, at an airfield it holds), Norway on a mobilisation point or point city, one per area and round, the
Allies on the coast of III-VII away from I and II (advanced: seas Germany does not control). Nobody places where
enemy battalions stand. The Allies' first six land as two groups of three, in areas apart (chapter 3).

One "why not" serves both the legal actions and the refusal: `legal_moves` and `legal_places` keep exactly the
candidates that `move_problem` and `place_problem` find nothing against. Every test reads the public board, the
actor's own cards and ships and public flags: what the acting country may know (the twin tests hold it).
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import TYPE_CHECKING, Any

import warroom.rulesets.kampen.coast as coast
import warroom.rulesets.kampen.manoeuvre as manoeuvre
from warroom.core.flow import draw_until
from warroom.rulesets.kampen.actions import DONE, Done, Move, Place, Play, move, place
from warroom.rulesets.kampen.state import GERMANY, NORWAY

if TYPE_CHECKING:
    from warroom.rulesets.kampen.state import KampenState as St


# ----- movement (4.1) ----------------------------------------------------------------------------------------
def legal_moves(st: St) -> list[Any]:
    """One area a round per battalion (4.1); into a hostile area the move is an attack, its battalions wait
    at the border. A battalion that arrived this round moves no more. Movement cards come with the moves."""
    if st.april:  # no movement on 9 April but the air drops (7.1)
        return [*manoeuvre.playable_moves(st), DONE]
    c = st.country
    adjacency = st.sc.board.adjacency
    arrived = st.arrived
    troops = st.troops
    out: list[Any] = []
    for area in sorted(troops):
        n = troops[area].get(c, 0) - arrived.get(area, 0)  # `manoeuvre.movable`: `move_problem`'s count
        if n <= 0:  # nothing here may move
            continue
        out.extend(plain_moves(area, adjacency[area], n))
    out.extend(manoeuvre.playable_moves(st))
    out.append(DONE)
    return out


def random_move(st: St, rng: Random) -> Any:
    """One of `legal_moves(st)`, each as likely as any other, drawn without listing them (a search's random
    playouts make most of their moves here). The draw is over every plain move, every distinct card in the hand
    and `done`, and a card the mover cannot play now is drawn again: the plain moves are counted from the
    battalions free to move, and a card is asked about only when it is drawn. The plain moves are counted in the
    order of the board's record (`st.troops`, which a copy keeps): the same position and stream draw the same move,
    though not always the one at the same place in `legal_moves`' sorted list."""
    if st.april:
        listed = legal_moves(st)
        return listed[int(rng.random() * len(listed))]
    c = st.country
    adjacency = st.sc.board.adjacency
    arrived = st.arrived
    troops = st.troops
    plain = 0  # every plain move: the battalions free to move in an area times its neighbours
    for area, here in troops.items():
        n = here.get(c, 0)
        if n and arrived:
            n -= arrived.get(area, 0)
        if n > 0:
            plain += n * len(adjacency[area])
    hand = list(dict.fromkeys(st.hands[c]))

    def pick(r: int) -> Any:
        if r < plain:  # the r-th plain move, counted again in the same order
            for area, here in troops.items():
                n = here.get(c, 0)
                if n and arrived:
                    n -= arrived.get(area, 0)
                if n > 0:
                    neighbours = adjacency[area]
                    ways = n * len(neighbours)
                    if r < ways:
                        return move(area, neighbours[r // n], r % n + 1)
                    r -= ways
        return manoeuvre.card_or_done(st, hand, r - plain, manoeuvre.playable_move)

    return draw_until(rng, plain + len(hand) + 1, pick)


_PLAIN: dict[tuple[str, tuple[str, ...], int], tuple[Move, ...]] = {}
"""The plain moves out of an area, by the area, its neighbours and how many battalions may go: made once."""


def plain_moves(area: str, neighbours: tuple[str, ...], n: int) -> tuple[Move, ...]:
    """Every plain move of 1 to `n` battalions from `area` into each of its `neighbours`, neighbour by neighbour."""
    key = (area, neighbours, n)
    got = _PLAIN.get(key)
    if got is None:
        got = _PLAIN[key] = tuple(move(area, to, k) for to in neighbours for k in range(1, n + 1))
    return got


def move_problem(st: St, action: Any) -> str:
    """Why `action` is not a legal choice of the movement phase now ('' if it is)."""
    if isinstance(action, Done):
        return ""
    if isinstance(action, Play):
        if action.card not in st.hands.get(st.country, []):
            return f"{action.card} is not in your hand"
        if action not in manoeuvre.playable_moves(st):
            return "that card has no use that fits this moment (see its timing and requirements)"
        return ""
    if not isinstance(action, Move):
        return "not asked for at this step: move FROM TO [N], play CARD or done"
    if st.april:
        return "nobody moves overland on 9 April; only the air drops are made (7.1)"
    board = st.sc.board
    for area in (action.frm, action.to):
        if area not in board.land:
            return f"{area} is not a land area"
    if action.via:
        return f"only a movement card takes battalions through {action.via}; a plain move goes one area (4.1)"
    if action.to not in board.neighbours(action.frm):
        return f"{action.to} is not next to {action.frm}; a battalion moves one area a round (4.1)"
    if action.n < 1:
        return "a move takes at least one battalion"
    have = manoeuvre.movable(st, action.frm, st.country)
    if have < action.n:
        return (f"{st.sc.names[st.country]} have {max(have, 0)} battalions in {action.frm} that may still move "
                "(those that arrived this round move no more, 4.1)")
    return ""


# ----- placing new battalions (4.3, 8.3) ---------------------------------------------------------------------
NO = "no"
"""A refusal not put into words: asked for every area at once, only the decision counts."""


def area_problem(st: St, area: str, words: bool = True) -> str:
    """Why the country in its round may not place a new battalion in `area` now ('' if it may); without
    `words`, only whether it may (a refusal is `NO`)."""
    c = st.country
    board = st.sc.board
    info = board.land.get(area)
    if info is None:
        return f"{area} is not a land area"
    if st.hostile(area, c):
        return f"enemy battalions stand in {area}, and a new battalion does not start a battle (4.3)" if words else NO
    seas = info.seas
    if c == GERMANY:
        airlift = st.flags.airfield_places > 0
        if airlift and info.airfield and st.at(area, GERMANY) > 0:
            return ""  # Transportfly: at an airfield Germany holds
        if st.advanced and seas and coast.german_places(st, area):
            return ""
        if not st.advanced and seas & {"I", "II"}:
            return ""
        if not words:
            return NO
        where = ("on the coast of sea area I or II, or of a sea where no Allied ship stands there or further south, "
                 "or one German ship at a time from a sea its ships control (8.3)") if st.advanced else \
            "on the coast of sea area I or II (4.3)"
        also = " (or, with Transportfly, at an airfield it holds)" if airlift else ""
        why = f"{area} has no coast" if not seas else f"{area} is not such a place now"
        return f"Germany places new battalions {where}{also}; {why}"
    if c == NORWAY:
        if not (info.mobilisation or info.point_city):
            return (f"Norway places new battalions on a mobilisation point or a point city, and {area} is neither "
                    "(4.3)") if words else NO
        if area in st.placed:
            return (f"Norway has placed a new battalion in {area} this round already: one per area a round (4.3)"
                    if words else NO)
        return ""
    if st.advanced:
        if coast.allied_places(st, area):
            return ""
        return (f"the Allies land new battalions on the coast of sea areas III-VII, never next to I or II nor next to "
                f"a sea controlled by German ships; {area} is not such a place (8.3)") if words else NO
    first = set(st.sc.allies_first["seas"])
    if seas & first and not seas & {"I", "II"}:
        return ""
    if not words:
        return NO
    return (f"the Allies place new battalions on the coast of sea areas {', '.join(sorted(first))}, never next to "
            f"I or II (4.3)")


def placement_areas(st: St) -> Iterator[str]:
    """Where the country places its next new battalions (4.3; advanced game 8.3), by id: never where enemy
    battalions stand (assumption: a reinforcement does not start a battle, J22), and the Allies' first groups
    apart (chapter 3). One at a time, so that asking whether there is any stops at the first."""
    for area in st.sc.board.land_by_name:
        if may_place(st, area):
            yield area


def may_place(st: St, area: str) -> bool:
    """Whether the country's next new battalions may go to `area` (`placement_areas`' test)."""
    return not area_problem(st, area, words=False) and not (st.first_groups and group_problem(st, area))


def can_place(st: St) -> bool:
    """Whether `legal_places` offers anything, without listing it."""
    return next(placement_areas(st), None) is not None


def group_problem(st: St, area: str) -> str:
    """Why the Allies' next first group may not land in `area` (a place they may land), '' if it may."""
    taken = st.flags.first_areas
    if area in taken:
        return f"a first group has landed in {area} already; the two land in different areas (chapter 3)"
    near = [t for t in taken if t in st.sc.board.neighbours(area)]
    if near:
        return f"{area} is next to {near[0]}, where a first group landed; the two land apart (chapter 3)"
    return ""


def legal_places(st: St) -> list[Any]:
    group = st.first_groups[0] if st.first_groups else 1
    return [place(a, group) for a in placement_areas(st)]


def random_place(st: St, rng: Random) -> Any:
    """One of `legal_places(st)`, each as likely as any other: areas drawn at random until one may take the
    battalions (as many tries as there are areas), else a draw from the list."""
    areas = st.sc.board.land_by_name
    group = st.first_groups[0] if st.first_groups else 1
    for _ in areas:
        area = areas[int(rng.random() * len(areas))]
        if may_place(st, area):
            return place(area, group)
    listed = legal_places(st)
    return listed[int(rng.random() * len(listed))]


def place_problem(st: St, action: Any) -> str:
    """Why `action` is not a legal placement now ('' if it is)."""
    if not isinstance(action, Place):
        return "not asked for at this step: place AREA"
    why = area_problem(st, action.area)
    if why:
        return why
    if st.first_groups:
        group = st.first_groups[0]
        if action.n != group:
            return f"the Allies' first battalions land as a group of {group} (chapter 3)"
        return group_problem(st, action.area)
    if action.n != 1:
        return "new battalions are placed one at a time"
    return ""
