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

from warroom.core.keep import PerObject
from warroom.rulesets.kampen import combat
from warroom.rulesets.kampen.board import Board
from warroom.rulesets.kampen.state import DEFENDERS, GERMANY, NORWAY, KampenState

FAR = 99

RESERVE = 5
"""Norwegian and Allied battalions wanted in reserve next to their fortress: beyond 5 a stack adds no dice, and a
beaten garrison with no way out is lost whole, so the spare battalions stand beside it, ready to strike back."""


class Tables:
    """What follows from the board alone, worked out once per board: land steps between every two areas
    (fjords and lakes are crossed like any border: a move may cross them; only an attack across them is weaker),
    the steps to attack each city over land (`assault`), which borders cross water, and the areas on the coast of
    I and II (where Germany places its new battalions) with each city's distance from them."""

    def __init__(self, board: Board) -> None:
        self.board = board
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
        self.steps = out
        self.landing_coast = board.coastal({"I", "II"})
        self._fronts: dict[str, list[str]] = {}  # city -> neighbours it can be attacked from over land
        self._assault: dict[tuple[str, str], int] = {}  # (area, city) -> `assault`
        self._water: dict[tuple[str, str], bool] = {}  # (a, b) -> `board.crosses_water(a, b)`
        self._supply: dict[str, int] = {}  # city -> `supply_distance`

    def supply_distance(self, city: str) -> int:
        """Land steps from the nearest area where Germany places its new battalions (the coast of I and II)."""
        got = self._supply.get(city)
        if got is None:
            got = self._supply[city] = min(self.dist(a, city) for a in self.landing_coast)
        return got

    def crosses_water(self, a: str, b: str) -> bool:
        """`board.crosses_water(a, b)`."""
        key = (a, b)
        got = self._water.get(key)
        if got is None:
            got = self._water[key] = self.board.crosses_water(a, b)
        return got

    def dist(self, a: str, b: str) -> int:
        return self.steps[a].get(b, FAR)

    def fronts(self, city: str) -> list[str]:
        """The neighbours of `city` it can be attacked from without crossing water."""
        got = self._fronts.get(city)
        if got is None:
            board = self.board
            got = self._fronts[city] = [n for n in board.neighbours(city) if not board.crosses_water(n, city)]
        return got

    def assault(self, area: str, city: str) -> int:
        """Land steps from `area` to the nearest area from which `city` can be attacked without crossing water,
        plus the attack itself (`area` is not `city`)."""
        key = (area, city)
        got = self._assault.get(key)
        if got is None:
            fronts = self.fronts(city)
            got = 1 if area in fronts else 1 + min((self.dist(area, n) for n in fronts), default=FAR - 1)
            self._assault[key] = got
        return got


tables = PerObject(Tables)
"""The `Tables` of a board (kept per board object)."""


def distances(board: Board) -> dict[str, dict[str, int]]:
    """Land steps between every two areas, worked out once per board (`Tables`)."""
    return tables(board).steps


def side_of(country: str) -> tuple[str, ...]:
    """The countries that fight on `country`'s side: Germany alone, or Norway and the Allies."""
    return DEFENDERS if country in DEFENDERS else (GERMANY,)


class Plan:
    """The campaign sense for one position, each answer worked out on first use and kept.

    A `Plan` reads its position but never changes it, and its answers hold only while the position stays as it
    was: the heuristic makes one per decision (every legal action is scored on the same determinised copy), and
    the module's functions one per call.
    """

    def __init__(self, st: KampenState) -> None:
        self.st = st
        self.tables = tables(st.sc.board)
        self._hostile: dict[str, frozenset[str]] = {}  # me -> `enemy_held`
        self._threat: dict[tuple[str, str], int] = {}
        self._approach: dict[tuple[str, str, str], int] = {}
        self._surplus: dict[tuple[str, str], int] = {}
        self._fortress: str | None = None
        self._reserve: dict[str, list[str]] = {}
        self._targets: dict[str, dict[str, int]] = {}
        self._orders: dict[str, dict[str, dict[str, int]]] = {}

    def dist(self, a: str, b: str) -> int:
        return self.tables.dist(a, b)

    def hostile(self, area: str, me: str) -> bool:
        """`st.hostile(area, me)`."""
        held = self._hostile.get(me)
        if held is None:
            held = self._hostile[me] = self.enemy_held(me)
        return area in held

    def enemy_held(self, me: str) -> frozenset[str]:
        """The areas where `me`'s enemies have battalions (`st.hostile`, for every area in one pass)."""
        enemies = self.st.enemies(me)
        return frozenset(a for a, here in self.st.troops.items() if any(here.get(e, 0) for e in enemies))

    def allied_coast(self, area: str) -> bool:
        """Whether the Allies could land next to or in `area` (a coast on III-VII, while they still have cards)."""
        st = self.st
        if st.allies_out:
            return False
        seas = st.sc.board.land[area].seas
        return bool(seas) and not seas & {"I", "II"}

    def holds(self, city: str, me: str) -> bool:
        """Whether `me`'s side holds a point city; an empty one counts for Norway and the Allies (1.3)."""
        return self.st.holder(city) == GERMANY if me == GERMANY else self.st.holder(city) != GERMANY

    def threat(self, area: str, me: str) -> int:
        """Enemy battalions that could attack `area` in their next round: those next to it, and against Germany on
        a coast the Allies may land on, two more for an invasion."""
        key = (area, me)
        got = self._threat.get(key)
        if got is None:
            st = self.st
            enemies = st.enemies(me)
            troops = st.troops
            got = 0
            for n in st.sc.board.neighbours(area):
                here = troops.get(n)
                if here:
                    got += sum(here.get(e, 0) for e in enemies)
            if me == GERMANY and self.allied_coast(area):
                got += 2
            self._threat[key] = got
        return got

    def garrison_need(self, city: str, me: str = GERMANY) -> int:
        """Battalions a side keeps in a point city it holds: one at least (for Germany an empty city is lost),
        and about as many as could strike it, up to the 5 that give all the defence dice."""
        return max(1, min(combat.CAP, self.threat(city, me)))

    def present(self, area: str, me: str) -> int:
        """Battalions of `me`'s side in `area`."""
        here = self.st.troops.get(area)
        return sum(here.get(c, 0) for c in side_of(me)) if here else 0

    def targets(self, me: str) -> dict[str, int]:
        """Point cities that need battalions of `me`'s side, with how many (read it, do not change it).

        Germany: every city it holds short of its garrison (an empty one one more), and every city it lacks, with
        enough attackers for the 5 battalion dice. Norway and the Allies: one city held at the end wins, an empty
        one counts for them, and 5 defenders already get all the dice, so they hold one fortress with a few to
        spare (`fortress`) and a reserve beside it (`reserve`); until they have one, they gather against the
        German city `defender_focus` picks."""
        got = self._targets.get(me)
        if got is None:
            got = self._targets[me] = self.new_targets(me)
        return got

    def new_targets(self, me: str) -> dict[str, int]:
        st = self.st
        if me != GERMANY:
            keep = self.fortress()
            if keep:
                want = {keep: self.fortress_need(keep)} | dict.fromkeys(self.reserve(keep), RESERVE)
                return {a: k - self.present(a, me) for a, k in want.items() if k > self.present(a, me)}
            focus = self.defender_focus()
            return {focus: min(combat.CAP + 1, st.at(focus, GERMANY) + 3)} if focus else {}
        out: dict[str, int] = {}
        for city in sorted(st.sc.board.point_cities):
            if self.hostile(city, me):
                out[city] = min(combat.CAP + 1, sum(st.at(city, e) for e in st.enemies(me)) + 3)
                continue
            here = self.present(city, me)
            short = self.garrison_need(city, me) + (0 if here else 1) - here
            if short > 0:
                out[city] = short
        return out

    def fortress(self) -> str:
        """The point city Norway and the Allies hold to the end: of those they hold with battalions, the one with
        most of them against the Germans next to it ('' when they hold none)."""
        if self._fortress is None:
            st = self.st
            held = [c for c in sorted(st.sc.board.point_cities) if st.holder(c) == "norway_allies"]
            self._fortress = max(held, key=lambda c: 2 * self.present(c, NORWAY) - self.threat(c, NORWAY)
                                 + 0.3 * self.supply_distance(c), default="")
        return self._fortress

    def reserve(self, keep: str) -> list[str]:
        """Where the fortress's reserve stands: the land neighbour the Germans threaten least (none if every road
        in is German-held). Beaten defenders retreat to it, and from it they strike back."""
        got = self._reserve.get(keep)
        if got is None:
            board = self.st.sc.board
            roads = [n for n in sorted(board.neighbours(keep))
                     if not board.crosses_water(n, keep) and not self.hostile(n, NORWAY)]
            got = self._reserve[keep] = sorted(roads, key=lambda n: self.threat(n, NORWAY))[:1]
        return got

    def fortress_need(self, city: str) -> int:
        """All 5 defence dice and two battalions to lose to German 6s, once Germans stand next to it."""
        return combat.CAP + 2 if self.threat(city, NORWAY) >= 2 else 4

    def approach(self, area: str, city: str, me: str = GERMANY) -> int:
        """Land steps from `area` to `city`; to an enemy-held city, to the nearest area from which it can be
        attacked without crossing water (an attack across a fjord or lake gets half the dice), plus the attack
        itself."""
        key = (area, city, me)
        got = self._approach.get(key)
        if got is None:
            if not self.hostile(city, me) or area == city:
                got = self.dist(area, city)
            else:
                got = self.tables.assault(area, city)
            self._approach[key] = got
        return got

    def surplus(self, area: str, me: str = GERMANY) -> int:
        """`me`'s battalions in `area` free to leave it: all but what a held point city needs (Germany's
        garrisons; for Norway and the Allies their fortress and its reserve, counting what the partner there
        provides)."""
        key = (area, me)
        got = self._surplus.get(key)
        if got is None:
            got = self._surplus[key] = self.new_surplus(area, me)
        return got

    def new_surplus(self, area: str, me: str) -> int:
        st = self.st
        here = st.at(area, me) - st.arrived.get(area, 0)
        if me == GERMANY:
            if area in st.sc.board.point_cities and self.holds(area, me):
                return min(here, st.at(area, me) - self.garrison_need(area, me))
            return here
        keep = self.fortress()
        if not keep or (area != keep and area not in self.reserve(keep)):
            return here
        others = self.present(area, me) - st.at(area, me)
        return min(here, st.at(area, me) + others - (self.fortress_need(area) if area == keep else RESERVE))

    def orders(self, me: str) -> dict[str, dict[str, int]]:
        """Where `me`'s free battalions go: each area's surplus shared out among the cities that need battalions,
        nearest first (a greedy transport plan), so that Narvik gets its own column while Trondheim gets another.
        What is left over heads for the city with the most need. {area: {city: battalions}} (read it, do not
        change it)."""
        got = self._orders.get(me)
        if got is None:
            got = self._orders[me] = self.new_orders(me)
        return got

    def new_orders(self, me: str) -> dict[str, dict[str, int]]:
        st = self.st
        need = self.targets(me)
        if not need:
            return {}
        supply = {a: n for a in sorted(st.troops) if (n := self.surplus(a, me)) > 0}
        pairs = sorted((self.approach(a, c, me), a, c) for a in supply for c in need)
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

    def secure(self) -> bool:
        """Every point city German, each with its full garrison: the clock may run fast."""
        st = self.st
        return all(st.holder(c) == GERMANY and st.at(c, GERMANY) >= self.garrison_need(c)
                   for c in st.sc.board.point_cities)

    def defender_focus(self) -> str:
        """The German-held point city Norway and the Allies gather against: the one where the defenders within
        three areas outnumber its garrison by most, nearer ones counting more; a city on the Allies' coasts counts
        a little more (they can land beside it). One city held at the end is their win, so they strike
        together."""
        st = self.st
        best, value = "", -float(FAR)
        defenders = {a: self.present(a, NORWAY) for a in st.troops}
        for city in sorted(st.sc.board.point_cities):
            if st.holder(city) != GERMANY:
                continue
            near = sum(n / (1.0 + d) for a, n in defenders.items() if (d := self.dist(a, city)) <= 3)
            v = near - st.at(city, GERMANY) + (1.5 if self.allied_coast(city) else 0.0) + 0.3 * self.supply_distance(
                city)
            if v > value:
                best, value = city, v
        return best

    def supply_distance(self, city: str) -> int:
        """Land steps from the nearest area where Germany places its new battalions (the coast of I and II)."""
        return self.tables.supply_distance(city)


# ----- the same answers for one question about a position ---------------------------------------------------------
def dist(st: KampenState, a: str, b: str) -> int:
    return tables(st.sc.board).dist(a, b)


def allied_coast(st: KampenState, area: str) -> bool:
    return Plan(st).allied_coast(area)


def holds(st: KampenState, city: str, me: str) -> bool:
    return Plan(st).holds(city, me)


def threat(st: KampenState, area: str, me: str) -> int:
    return Plan(st).threat(area, me)


def garrison_need(st: KampenState, city: str, me: str = GERMANY) -> int:
    return Plan(st).garrison_need(city, me)


def present(st: KampenState, area: str, me: str) -> int:
    return sum(st.at(area, c) for c in side_of(me))


def targets(st: KampenState, me: str) -> dict[str, int]:
    return Plan(st).targets(me)


def fortress(st: KampenState) -> str:
    return Plan(st).fortress()


def reserve(st: KampenState, keep: str) -> list[str]:
    return Plan(st).reserve(keep)


def fortress_need(st: KampenState, city: str) -> int:
    return Plan(st).fortress_need(city)


def approach(st: KampenState, area: str, city: str, me: str = GERMANY) -> int:
    return Plan(st).approach(area, city, me)


def surplus(st: KampenState, area: str, me: str = GERMANY) -> int:
    return Plan(st).surplus(area, me)


def orders(st: KampenState, me: str) -> dict[str, dict[str, int]]:
    return Plan(st).orders(me)


def all_cities_german(st: KampenState) -> bool:
    return all(st.holder(c) == GERMANY for c in st.sc.board.point_cities)


def german_cards_left(st: KampenState) -> int:
    """Face-down cards left in the German deck (a public count): when a draw empties it the game ends."""
    return len(st.draw[GERMANY])


def can_end_now(st: KampenState) -> bool:
    """Germany holds every point city and can empty its deck in this round's draw by trading cards now."""
    return st.country == GERMANY and all_cities_german(st) and german_cards_left(st) <= st.sc.hand[GERMANY]


def secure(st: KampenState) -> bool:
    return Plan(st).secure()


def defender_focus(st: KampenState) -> str:
    return Plan(st).defender_focus()


def supply_distance(st: KampenState, city: str) -> int:
    return Plan(st).supply_distance(city)
