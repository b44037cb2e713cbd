"""The campaign sense of the Kampen om Norge heuristic: which point cities need battalions, how far each area is
from them, and when the game can be ended.

Everything here reads only what every country may know: the board, the battalions on it, the number of cards
left in each deck and the victory table (1.3). The German plan follows from that table: Germany wins only by
holding *every* point city when its own deck runs out, and an empty point city counts for Norway and the Allies.
So Germany keeps a garrison in each city it holds, sized to the enemies that could strike it next, sends
everything else along the shortest road to the city that needs it most (Narvik, eleven areas north of Oslo,
most of all), and spends its cards slowly, one a round, while it cannot win, and all at once when holding
every city and emptying its deck this round ends the game as a win. Norway and the Allies aim the other way:
one point city held at the end is a win, so they gather against the weakest German garrison and hold what they
take.
"""

from __future__ import annotations

from collections import deque

from warroom.rulesets.kampen import combat
from warroom.rulesets.kampen.board import Board
from warroom.rulesets.kampen.state import DEFENDERS, GERMANY, NORWAY, KampenState

FAR = 99


_TABLES: dict[int, tuple[Board, dict[str, dict[str, int]]]] = {}


def distances(board: Board) -> dict[str, dict[str, int]]:
    """Land steps between every two areas (fjords and lakes are crossed like any border: a move may cross them;
    only an attack across them is weaker), worked out once per board."""
    got = _TABLES.get(id(board))
    if got is not None and got[0] is board:
        return got[1]
    out: dict[str, dict[str, int]] = {}
    for start in board.land:
        seen = {start: 0}
        queue = deque([start])
        while queue:
            a = queue.popleft()
            for n in board.neighbours(a):
                if n not in seen:
                    seen[n] = seen[a] + 1
                    queue.append(n)
        out[start] = seen
    _TABLES[id(board)] = (board, out)
    return out


def dist(st: KampenState, a: str, b: str) -> int:
    return distances(st.sc.board)[a].get(b, FAR)


def allied_coast(st: KampenState, area: str) -> bool:
    """Whether the Allies could land next to or in `area` (a coast on III-VII, while they still have cards)."""
    if st.allies_out:
        return False
    seas = st.sc.board.land[area].seas
    return bool(seas) and not seas & {"I", "II"}


def side_of(country: str) -> tuple[str, ...]:
    """The countries that fight on `country`'s side: Germany alone, or Norway and the Allies."""
    return DEFENDERS if country in DEFENDERS else (GERMANY,)


def holds(st: KampenState, city: str, me: str) -> bool:
    """Whether `me`'s side holds a point city; an empty one counts for Norway and the Allies (1.3)."""
    return st.holder(city) == GERMANY if me == GERMANY else st.holder(city) != GERMANY


def threat(st: KampenState, area: str, me: str) -> int:
    """Enemy battalions that could attack `area` in their next round: those next to it, and against Germany on
    a coast the Allies may land on, two more for an invasion."""
    enemies = st.enemies(me)
    near = sum(st.at(n, e) for n in st.sc.board.neighbours(area) for e in enemies)
    if me == GERMANY and allied_coast(st, area):
        near += 2
    return near


def garrison_need(st: KampenState, city: str, me: str = GERMANY) -> int:
    """Battalions a side keeps in a point city it holds: one at least (for Germany an empty city is lost), and
    about as many as could strike it, up to the 5 that give all the defence dice."""
    return max(1, min(combat.CAP, threat(st, city, me)))


def present(st: KampenState, area: str, me: str) -> int:
    return sum(st.at(area, c) for c in side_of(me))


def targets(st: KampenState, me: str) -> dict[str, int]:
    """Point cities that need battalions of `me`'s side, with how many.

    Germany: every city it holds short of its garrison (an empty one one more), and every city it lacks, with
    enough attackers for the 5 battalion dice. Norway and the Allies: one city held at the end wins, an empty one
    counts for them, and 5 defenders already get all the dice, so they hold one fortress with a few to spare
    (`fortress`) and a reserve beside it (`reserve`); until they have one, they gather against the German city
    `defender_focus` picks."""
    if me != GERMANY:
        keep = fortress(st)
        if keep:
            want = {keep: fortress_need(st, keep)} | dict.fromkeys(reserve(st, keep), RESERVE)
            return {a: k - present(st, a, me) for a, k in want.items() if k > present(st, a, me)}
        focus = defender_focus(st)
        return {focus: min(combat.CAP + 1, st.at(focus, GERMANY) + 3)} if focus else {}
    out: dict[str, int] = {}
    for city in sorted(st.sc.board.point_cities):
        if st.hostile(city, me):
            out[city] = min(combat.CAP + 1, sum(st.at(city, e) for e in st.enemies(me)) + 3)
            continue
        here = present(st, city, me)
        short = garrison_need(st, city, me) + (0 if here else 1) - here
        if short > 0:
            out[city] = short
    return out


RESERVE = 5
"""Norwegian and Allied battalions wanted in reserve next to their fortress: beyond 5 a stack adds no dice, and a
beaten garrison with no way out is lost whole, so the spare battalions stand beside it, ready to strike back."""


def fortress(st: KampenState) -> str:
    """The point city Norway and the Allies hold to the end: of those they hold with battalions, the one with
    most of them against the Germans next to it ('' when they hold none)."""
    held = [c for c in sorted(st.sc.board.point_cities) if st.holder(c) == "norway_allies"]
    return max(held, key=lambda c: 2 * present(st, c, NORWAY) - threat(st, c, NORWAY) + 0.3 * supply_distance(st, c),
               default="")


def reserve(st: KampenState, keep: str) -> list[str]:
    """Where the fortress's reserve stands: the land neighbour the Germans threaten least (none if every road in
    is German-held). Beaten defenders retreat to it, and from it they strike back."""
    board = st.sc.board
    roads = [n for n in sorted(board.neighbours(keep))
             if not board.crosses_water(n, keep) and not st.hostile(n, NORWAY)]
    return sorted(roads, key=lambda n: threat(st, n, NORWAY))[:1]


def fortress_need(st: KampenState, city: str) -> int:
    """All 5 defence dice and two battalions to lose to German 6s, once Germans stand next to it."""
    return combat.CAP + 2 if threat(st, city, NORWAY) >= 2 else 4


def approach(st: KampenState, area: str, city: str, me: str = GERMANY) -> int:
    """Land steps from `area` to `city`; to an enemy-held city, to the nearest area from which it can be attacked
    without crossing water (an attack across a fjord or lake gets half the dice), plus the attack itself."""
    if not st.hostile(city, me) or area == city:
        return dist(st, area, city)
    board = st.sc.board
    fronts = [n for n in board.neighbours(city) if not board.crosses_water(n, city)]
    if area in fronts:
        return 1
    return 1 + min((dist(st, area, n) for n in fronts), default=FAR - 1)


def surplus(st: KampenState, area: str, me: str = GERMANY) -> int:
    """`me`'s battalions in `area` free to leave it: all but what a held point city needs (Germany's garrisons;
    for Norway and the Allies their fortress and its reserve, counting what the partner there provides)."""
    here = st.at(area, me) - st.arrived.get(area, 0)
    if me == GERMANY:
        if area in st.sc.board.point_cities and holds(st, area, me):
            return min(here, st.at(area, me) - garrison_need(st, area, me))
        return here
    keep = fortress(st)
    if not keep or (area != keep and area not in reserve(st, keep)):
        return here
    others = present(st, area, me) - st.at(area, me)
    return min(here, st.at(area, me) + others - (fortress_need(st, area) if area == keep else RESERVE))


def orders(st: KampenState, me: str) -> dict[str, dict[str, int]]:
    """Where `me`'s free battalions go: each area's surplus shared out among the cities that need battalions,
    nearest first (a greedy transport plan), so that Narvik gets its own column while Trondheim gets another.
    What is left over heads for the city with the most need. {area: {city: battalions}}."""
    need = targets(st, me)
    if not need:
        return {}
    supply = {a: n for a in sorted(st.troops) if (n := surplus(st, a, me)) > 0}
    pairs = sorted((approach(st, a, c, me), a, c) for a in supply for c in need)
    demand = dict(need)
    out: dict[str, dict[str, int]] = {}
    for d, a, c in pairs:
        if d >= FAR or not supply[a] or not demand[c]:
            continue
        k = min(supply[a], demand[c])
        supply[a] -= k
        demand[c] -= k
        mine = out.setdefault(a, {})
        mine[c] = mine.get(c, 0) + k
    main = max(sorted(need), key=lambda c: need[c])
    for a, left in supply.items():
        if left:
            mine = out.setdefault(a, {})
            mine[main] = mine.get(main, 0) + left
    return out


def all_cities_german(st: KampenState) -> bool:
    return all(st.holder(c) == GERMANY for c in st.sc.board.point_cities)


def german_cards_left(st: KampenState) -> int:
    """Face-down cards left in the German deck (a public count): when a draw empties it the game ends."""
    return len(st.draw[GERMANY])


def can_end_now(st: KampenState) -> bool:
    """Germany holds every point city and can empty its deck in this round's draw by trading cards now."""
    return st.country == GERMANY and all_cities_german(st) and german_cards_left(st) <= st.sc.hand[GERMANY]


def secure(st: KampenState) -> bool:
    """Every point city German, each with its full garrison: the clock may run fast."""
    return all(st.holder(c) == GERMANY and st.at(c, GERMANY) >= garrison_need(st, c) for c in st.sc.board.point_cities)


def defender_focus(st: KampenState) -> str:
    """The German-held point city Norway and the Allies gather against: the one where the defenders within three
    areas outnumber its garrison by most, nearer ones counting more; a city on the Allies' coasts counts a little
    more (they can land beside it). One city held at the end is their win, so they strike together."""
    best, value = "", -float(FAR)
    for city in sorted(st.sc.board.point_cities):
        if st.holder(city) != GERMANY:
            continue
        near = sum(present(st, a, NORWAY) / (1.0 + dist(st, a, city)) for a in st.troops
                   if dist(st, a, city) <= 3)
        v = near - st.at(city, GERMANY) + (1.5 if allied_coast(st, city) else 0.0) + 0.3 * supply_distance(st, city)
        if v > value:
            best, value = city, v
    return best


def supply_distance(st: KampenState, city: str) -> int:
    """Land steps from the nearest area where Germany places its new battalions (the coast of I and II)."""
    board = st.sc.board
    return min(dist(st, a, city) for a in board.coastal({"I", "II"}))
