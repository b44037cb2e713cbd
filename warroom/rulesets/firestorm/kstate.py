"""The simulation kernel's position (`kernel.py`): the open battle, a side's book of strategic moves, the fields of
a campaign position in ints, and the helpers every rule module of the kernel shares (troop counts, supply, reach,
captures, battle arrows). The rule modules (`kplace.py`, `kbattle.py`, `kmoves.py`, `kcaen.py`) work on it; the
flow (`kernel.py`) drives them."""

from __future__ import annotations

from typing import Any, Final

from warroom.rulesets.firestorm.kmap import KMap

# The steps: the rows of `steps.build_flow` and `dday.dday_steps` the kernel plays. (`Final`: the compiled kernel
# reads them as constants, not as module attributes.)
TURN_START: Final = 0
PLAN_PLACE: Final = 1
BATTLES: Final = 2
INITIATIVE: Final = 3
NO_BATTLE: Final = 4
ARROW_STEP: Final = 5
ATT_COMMIT: Final = 6
DEF_COMMIT: Final = 7
SUPPLY: Final = 8
MODE: Final = 9
GW: Final = 10
DESTROY: Final = 11
RETREAT_STEP: Final = 12
ADVANCE_STEP: Final = 13
BATTLE_END: Final = 14
CAUMONT: Final = 15
STRAT_START: Final = 16
REINFORCE: Final = 17
MOVES: Final = 18
TURN_END: Final = 19
TONGA: Final = 20
NEPTUNE: Final = 21
EXPLOIT: Final = 22
PZ21: Final = 23
STEP_NAMES = ("turn_start", "plan_place", "battles", "initiative", "no_battle", "arrow", "attack_commit",
              "defend_commit", "supply_roll", "mode_choice", "gw_roll", "destroy_roll", "retreat", "advance",
              "battle_end", "caumont", "strategic_start", "reinforce", "moves", "turn_end", "dday_tonga",
              "dday_neptune", "dday_exploit", "dday_pz21")
STEP_OF = {name: i for i, name in enumerate(STEP_NAMES)}
"""The kernel's step for each reference step name it plays."""
NO_REQ: Final = -1
"""A battle's required troop: none."""
PANZER_REQ: Final = -2
"""A battle's required troop: a Panzer Unit must lead (Lorraine 4.1)."""
# a battle's winner (`Battle.winner`): not yet known, the attacker, the defender, a draw (the defender holds)
NOBODY: Final = 0
ATT_WINS: Final = 1
DEF_WINS: Final = 2
DRAWN: Final = 3
WINNER_NAMES = ("", "attacker", "defender", "draw")
NORMAL: Final = 0
EXPLOIT_KIND: Final = 1
PZ21_KIND: Final = 2
CAUMONT_KIND: Final = 3
KIND_NAMES = ("normal", "exploit", "pz21", "caumont")
"""A battle's kind (`Battle.kind`): one of the turn's count, a D-Day follow-up attack, 21. Panzerdivision's
counter-attack, the Caumont Gap."""


class KBattle:
    """The open battle (`battle.Battle`), in ints: sides 0/1, areas and troops by number, extras after the troops."""

    __slots__ = ("advanced", "att", "att_supplied", "att_total", "attacker", "def_supplied", "def_total", "defender",
                 "destroyed", "dfn", "frm", "kind", "max_ft", "required", "retreating", "survivors", "targets", "to",
                 "variable", "winner")

    def __init__(self, kind: int, attacker: int, frm: int, to: int, max_ft: int, required: int) -> None:
        self.kind = kind
        self.attacker = attacker
        self.defender = 1 - attacker
        self.frm = frm
        self.to = to
        self.max_ft = max_ft
        self.required = required
        self.att: tuple[int, ...] = ()
        self.dfn: tuple[int, ...] = ()
        self.att_supplied = True
        self.def_supplied = True
        self.variable: list[tuple[int, int]] = []
        self.att_total = 0
        self.def_total = 0
        self.winner = NOBODY
        self.targets: list[tuple[int, int, int]] = []
        self.destroyed: list[int] = []
        self.retreating: list[int] = []
        self.survivors: list[int] = []
        self.advanced = 0

    def clone(self) -> KBattle:
        new = KBattle(self.kind, self.attacker, self.frm, self.to, self.max_ft, self.required)
        new.att, new.dfn = self.att, self.dfn
        new.att_supplied, new.def_supplied = self.att_supplied, self.def_supplied
        new.variable = list(self.variable)
        new.att_total, new.def_total, new.winner = self.att_total, self.def_total, self.winner
        new.targets = list(self.targets)
        new.destroyed = list(self.destroyed)
        new.retreating = list(self.retreating)
        new.survivors = list(self.survivors)
        new.advanced = self.advanced
        return new


class KBook:
    """The strategic moves of one side in one Strategic Phase (`movebook.MoveBook`): every move ignoring stacking,
    as each troop's moves in menu order (`spans`: the troop, the codes of its moves and their destinations, by
    area id, the bit of the area it stands in and the bits of its destinations), and the last listing of the open
    moves, made once per move made (`seen`: the count of moves made when it was listed, the listing, and the troop
    whose moves alone the next move closed, or -1 where that move may have opened or closed others: see
    `kmoves.listing`)."""

    __slots__ = ("seen", "side", "spans", "turn")

    def __init__(self, side: int, turn: int, spans: list[tuple[int, list[int], list[int], int, int]]) -> None:
        self.side = side
        self.turn = turn
        self.spans = spans
        self.seen: tuple[int, list[int], int] | None = None

    def copy(self) -> KBook:
        """A copy that shares the lists, which are never changed in place."""
        new = KBook(self.side, self.turn, self.spans)
        new.seen = self.seen
        return new


class KPosition:
    """A campaign position in the kernel: every field, and the helpers the rules share (`kernel.Kernel` adds the
    state API and the flow)."""

    # what is worked out from control alone, made again when it changes (`forget_control`)
    supply_cache: list[list[bool] | None]
    reach_cache: dict[int, list[int]]
    pool_cache: list[list[int] | None]

    def __init__(self, m: KMap, params: dict[str, Any], copy_of: KPosition | None = None) -> None:
        """A position before the campaign's first step (`new_kernel` enters it), or a copy of `copy_of` that shares
        nothing play changes (`clone`)."""
        self.m = m
        self.params = params
        if copy_of is not None:
            self.copy(copy_of)
            return
        self.through_full = m.revision_ok(params)
        self.step = TURN_START
        self.turn = 1
        self.terminal = False
        self.control = list(m.start_control)
        self.loc = list(m.start_loc)
        self.counts: list[int] = []
        self.sided: list[int] = []
        self.count_places()
        self.unit_vp = [0, 0]
        self.bonus_vp = [0, 0]
        self.battles_left = 0
        self.battles_total = 0
        self.battle_no = 0
        self.air_left = [0, 0]
        self.carpet_left = 0
        self.battle: KBattle | None = None
        self.attacker = -1
        self.idx = 0
        self.placing: list[int] = []
        self.arrived: dict[int, tuple[int, ...]] = {}
        self.returned: set[int] = set()
        self.moved = [False] * m.nt  # made its strategic move this phase, per troop
        self.n_moved = 0
        self.dice = 0
        self.committed = False
        self.may_pass = False
        self.advance_done = False
        self.last_kind = NORMAL
        self.dday_done = False
        self.beach_idx = 0
        self.exploits: list[tuple[int, int]] = []
        self.no_attack_from: dict[int, int] = {}
        self.pz21_done = False
        self.caumont_done = False
        self.book: KBook | None = None
        self.over = -1  # the area over the stacking limit during the strategic moves (Caen 4.1), or -1
        self.forget_control()
        self.played = 0

    def copy(self, old: KPosition) -> None:
        """Take every field of `old`, with copies of its containers."""
        self.through_full = old.through_full
        self.step = old.step
        self.turn = old.turn
        self.terminal = old.terminal
        self.control = list(old.control)
        self.loc = list(old.loc)
        self.counts = list(old.counts)
        self.sided = list(old.sided)
        self.unit_vp = list(old.unit_vp)
        self.bonus_vp = list(old.bonus_vp)
        self.battles_left = old.battles_left
        self.battles_total = old.battles_total
        self.battle_no = old.battle_no
        self.air_left = list(old.air_left)
        self.carpet_left = old.carpet_left
        self.battle = old.battle.clone() if old.battle is not None else None
        self.attacker = old.attacker
        self.idx = old.idx
        self.placing = list(old.placing)
        self.arrived = dict(old.arrived)
        self.returned = set(old.returned)
        self.moved = list(old.moved)
        self.n_moved = old.n_moved
        self.dice = old.dice
        self.committed = old.committed
        self.may_pass = old.may_pass
        self.advance_done = old.advance_done
        self.last_kind = old.last_kind
        self.dday_done = old.dday_done
        self.beach_idx = old.beach_idx
        self.exploits = list(old.exploits)
        self.no_attack_from = dict(old.no_attack_from)
        self.pz21_done = old.pz21_done
        self.caumont_done = old.caumont_done
        self.book = old.book.copy() if old.book is not None else None
        self.over = old.over
        self.supply_cache = list(old.supply_cache)
        self.reach_cache = dict(old.reach_cache)
        self.pool_cache = list(old.pool_cache)
        self.played = old.played

    def fought(self) -> KBattle:
        """The open battle."""
        b = self.battle
        assert b is not None, "no open battle"
        return b

    def count_places(self) -> None:
        """Count the troops in each place (`counts`) and each side's troops in each place (`sided`, the second
        side's after the first's), from `loc`."""
        width = self.m.na + 6
        self.counts = [0] * width
        self.sided = [0] * (2 * width)
        side_of = self.m.side_of
        for u, where in enumerate(self.loc):
            self.counts[where] += 1
            self.sided[side_of[u] * width + where] += 1

    def move_to(self, unit: int, where: int) -> None:
        old = self.loc[unit]
        counts = self.counts
        counts[old] -= 1
        counts[where] += 1
        base = self.m.side_of[unit] * (self.m.na + 6)
        sided = self.sided
        sided[base + old] -= 1
        sided[base + where] += 1
        self.loc[unit] = where

    def has_room(self, area: int, extra: int = 1) -> bool:
        limit = self.m.stacking
        return limit == 0 or self.counts[area] + extra <= limit

    def set_control(self, area: int, side: int) -> None:
        if self.control[area] != side:
            self.control[area] = side
            self.forget_control()

    def forget_control(self) -> None:
        """Drop what was worked out from control alone: supply, strategic reach, pool areas."""
        self.supply_cache = [None, None]
        self.reach_cache = {}
        self.pool_cache = [None, None]

    def supplied(self, side: int) -> list[bool]:
        """`FirestormState.supplied_areas`, as a flag per area, made once per control."""
        got = self.supply_cache[side]
        if got is not None:
            return got
        control = self.control
        adj = self.m.adj
        na = self.m.na
        supply_of = self.m.supply_of
        seen = [False] * na
        queue = []
        for a in range(na):
            if supply_of[a] == side and control[a] == side:
                seen[a] = True
                queue.append(a)
        while queue:
            cur = queue.pop()
            for n in adj[cur]:
                if not seen[n] and control[n] == side:
                    seen[n] = True
                    queue.append(n)
        self.supply_cache[side] = seen
        return seen

    def reach(self, side: int, start: int, steps: int) -> list[int]:
        """`FirestormState.reach`: sorted by area id, made once per control (with areas as bits)."""
        key = ((side * self.m.na + start) << 5) + steps
        got = self.reach_cache.get(key)
        if got is not None:
            return got
        m = self.m
        control = self.control
        own = 0
        for a in range(m.na):
            if control[a] == side:
                own |= 1 << a
        adj_bits = m.adj_bits
        seen = 1 << start
        frontier = seen
        for _ in range(steps):
            nxt = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                nxt |= adj_bits[low.bit_length() - 1]
            frontier = nxt & own & ~seen
            if not frontier:
                break
            seen |= frontier
        seen ^= 1 << start
        result = [a for a in m.by_rank if (seen >> a) & 1]
        self.reach_cache[key] = result
        return result

    def pool_spots(self, side: int) -> list[int]:
        """`FirestormState.pool_spots`, made once per control."""
        got = self.pool_cache[side]
        if got is not None:
            return got
        ok = self.m.pool_ok[side]
        control = self.control
        result = [a for a in range(self.m.na) if control[a] == side and ok[a]]
        self.pool_cache[side] = result
        return result

    def capture(self, unit: int) -> None:
        m = self.m
        self.move_to(unit, m.CAPTURED)
        self.unit_vp[1 - m.side_of[unit]] += m.capture_vp[unit]

    def destroy(self, unit: int) -> None:
        m = self.m
        if m.panzer_rule and m.panzer[unit]:
            self.capture(unit)
        elif m.destroyed_gone:
            self.move_to(unit, m.GONE)
            self.unit_vp[1 - m.side_of[unit]] += m.capture_vp[unit]
        else:
            self.move_to(unit, m.POOL)

    def units_at(self, area: int, side: int) -> list[int]:
        side_of = self.m.side_of
        return [u for u, w in enumerate(self.loc) if w == area and side_of[u] == side]

    def total_vp(self, side: int) -> int:
        vp = self.m.area_vp
        return sum(vp[a] for a, s in enumerate(self.control) if s == side) + self.unit_vp[side] + \
            self.bonus_vp[side]

    def holding(self, side: int) -> list[int]:
        """`arrows.attack_froms`: areas `side` holds with one of its troops, by id."""
        control = self.control
        sided = self.sided
        base = side * (self.m.na + 6)
        return [a for a in self.m.by_rank if control[a] == side and sided[base + a]]

    def panzer_froms(self) -> list[int]:
        """`lorraine.panzer_froms`."""
        m = self.m
        control = self.control
        out = set()
        for u, w in enumerate(self.loc):
            if m.panzer[u] and m.side_of[u] == 1 and w < m.na and control[w] == 1 \
                    and any(control[n] != 1 for n in m.adj[w]):
                out.add(w)
        return sorted(out, key=m.arank.__getitem__)

    def arrows(self, side: int, froms: tuple[int, ...] | None, first: bool) -> list[int]:
        """`arrows._arrows` under `arrow_bar(side, froms)`: every legal arrow (or the first only)."""
        m = self.m
        control = self.control
        sided = self.sided
        base_here = side * (m.na + 6)
        forced = self.panzer_froms() if froms is None and m.panzer_rule and side == 1 else []
        landings = froms is None and side == 0 and bool(self.no_attack_from)
        moselle = m.moselle_rule and self.turn == 1 and side == 0
        starts: list[int] | tuple[int, ...] = froms if froms is not None else (forced or self.holding(side))
        out: list[int] = []
        base = m.ARROW
        na = m.na
        for frm in starts:
            if control[frm] != side or not sided[base_here + frm] or (forced and frm not in forced):
                continue
            if landings and self.no_attack_from.get(frm, 0) >= self.turn:
                continue
            for to in m.adj[frm]:
                if control[to] == side:
                    continue
                if moselle and not (m.river.get(frm * na + to) == "Moselle" or to in m.open_targets
                                    or m.start_control[to] == side):
                    continue
                out.append(base + frm * na + to)
                if first:
                    return out
        return out

    def arrow_options(self, side: int, froms: tuple[int, ...] | None) -> list[int]:
        return self.arrows(side, froms, False)

    def has_arrow(self, side: int) -> bool:
        return bool(self.arrows(side, None, True))

    def open_battle(self, kind: int, attacker: int, frm: int, to: int, max_ft: int, required: int) -> None:
        m = self.m
        if required == NO_REQ and m.panzer_rule and attacker == 1 and kind == NORMAL and frm in self.panzer_froms():
            required = PANZER_REQ
        self.battle = KBattle(kind, attacker, frm, to, max_ft, required)
