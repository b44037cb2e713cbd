"""The simulation kernel's static tables (`kernel.py`): a land campaign's scenario as integers, and the kernel's
action codes with their translation to and from the reference engine's actions.

Areas are numbered in the scenario's order, troops likewise; the off-board places follow the areas. Sides are 0 and
1 in the scenario's order. An action is one int:

- `PASS` is 0;
- an arrow `ARROW + frm * A + to`;
- a placement `PLACE + unit * (A + 1) + area`, where area A is Caen's Tactical Reserve;
- a strategic move `MOVE + unit * A + to`, a retreat `RETREAT + unit * A + to`, an advance `ADVANCE + unit`;
- a commitment `COMMIT + k`: with the group's items (troops, then the extras after them) in `Commit`'s canonical
  order, ranked r (a troop by its id's place among the ids, the extras after every troop, by their text) and W one
  more than the count of items, k = sum of (r_i + 1) * W**i; so the empty group is 0, and k decodes without a
  table.
"""

from __future__ import annotations

from typing import Any, Final

from warroom.core.state import Action
from warroom.rulesets.firestorm.actions import (
    AIR,
    CARPET,
    DEFENCE,
    NAVAL,
    PASS,
    Advance,
    Arrow,
    Commit,
    Move,
    Pass,
    Place,
    Retreat,
)
from warroom.rulesets.firestorm.caen import SPOT
from warroom.rulesets.firestorm.model import REVISION, FirestormScenario
from warroom.rulesets.firestorm.places import CAPTURED, GONE, OFFMAP, POOL, RESERVE, WITHDRAWN

OFF_PLACES = (POOL, OFFMAP, RESERVE, CAPTURED, GONE, WITHDRAWN)
"""The off-board places, numbered after the areas in this order."""
TOKENS = (AIR, CARPET, DEFENCE, NAVAL)
"""The extras, numbered after the troops in this order (which is also their text order, as `Commit` sorts them)."""
HOOKS = frozenset(("dday", "german_defence", "tactical_reserve", "beach_defence", "carpet_bombing", "caumont_gap",
                   "panzer_units", "fortifications", "weather", "t1_moselle_restriction", "german_success"))
"""The campaign rules the kernel plays: Caen's and Lorraine's (Norway's Strategic Game and its land rules are the
reference engine's alone)."""

K_PASS: Final = 0
"""The kernel's code for `pass`."""


def kernel_problem(sc: FirestormScenario, params: dict[str, Any]) -> str:
    """Why the kernel cannot play this campaign ('' if it can): it plays General's Wargame campaigns with Caen's
    and Lorraine's rules, one battle at a time. (The scenario's part is worked out once per scenario object: a
    search asks at every rollout.)"""
    got = _PROBLEMS.get(id(sc))
    if got is None or got[0] is not sc:
        if len(_PROBLEMS) >= 16:
            _PROBLEMS.clear()
        got = _PROBLEMS[id(sc)] = (sc, _scenario_problem(sc))
    if got[1]:
        return got[1]
    if params.get("mode", "gw") != "gw" or params.get("parallel"):
        return "the simulation kernel plays General's Wargame battles, one at a time"
    return ""


_PROBLEMS: dict[int, tuple[FirestormScenario, str]] = {}


def _scenario_problem(sc: FirestormScenario) -> str:
    extra = sorted(sc.rules.hooks - HOOKS)
    if extra:
        return f"the simulation kernel does not play the campaign rules {', '.join(extra)}"
    if sc.no_stop or sc.strat_areas:
        return "the simulation kernel plays land campaigns without pass-through areas"
    dropped = [a.unit for t in sc.turns for a in t.arrivals if a.seize or a.landing]
    if dropped:
        return f"the simulation kernel does not play air drops or landings by sea ({', '.join(dropped)})"
    if sc.rules.destroyed_to not in ("pool", "gone"):
        return f"unknown destroyed_to {sc.rules.destroyed_to!r}"
    return ""


class KMap:
    """One scenario's tables for the kernel: read-only, shared by every kernel position of the scenario."""

    def __init__(self, sc: FirestormScenario) -> None:
        self.sc = sc
        areas = list(sc.areas)
        troops = list(sc.troops)
        self.areas = areas
        self.troops = troops
        na = self.na = len(areas)
        nt = self.nt = len(troops)
        aix = self.aix = {a: i for i, a in enumerate(areas)}
        tix = self.tix = {u: i for i, u in enumerate(troops)}
        self.POOL = na
        self.OFFMAP = na + 1
        self.RESERVE = na + 2
        self.CAPTURED = na + 3
        self.GONE = na + 4
        self.WITHDRAWN = na + 5
        self.places = {**aix, **{p: na + i for i, p in enumerate(OFF_PLACES)}}
        self.place_names = [*areas, *OFF_PLACES]
        self.sides = sc.sides
        self.side_ix = {s: i for i, s in enumerate(sc.sides)}
        rules = sc.rules
        self.stacking = rules.stacking
        self.advance_cap = rules.advance_cap
        self.move_range = rules.move_range
        self.redeploy_returned = rules.redeploy_returned
        self.reinforce_order = [self.side_ix[s] for s in rules.reinforce_order]
        self.move_order = [self.side_ix[s] for s in rules.move_order]
        self.destroyed_gone = rules.destroyed_to == "gone"
        self.oos_gw = rules.oos_gw
        self.river_gw = rules.river_gw
        self.gw_destroy = rules.gw_destroy
        self.hooks = rules.hooks
        # areas
        self.adj = [tuple(aix[n] for n in sc.adjacency[a]) for a in areas]
        self.adj_set = [frozenset(x) for x in self.adj]
        self.adj_bits = [sum(1 << n for n in set(x)) for x in self.adj]  # the neighbours as bits
        rank = {a: i for i, a in enumerate(sorted(areas))}
        self.arank = [rank[a] for a in areas]
        self.by_rank = sorted(range(na), key=self.arank.__getitem__)
        self.area_vp = [sc.areas[a].vp for a in areas]
        self.start_control = [self.side_ix[sc.areas[a].control] for a in areas]
        self.supply_of = [self.side_ix.get(sc.areas[a].supply, -1) for a in areas]
        self.beach = [("beach" in sc.areas[a].flags) for a in areas]
        self.fortified = [("fortified" in sc.areas[a].flags) for a in areas]
        self.river: dict[int, str] = {}
        for pair, name in sc.rivers.items():
            x, y = sorted(pair)
            self.river[aix[x] * na + aix[y]] = name
            self.river[aix[y] * na + aix[x]] = name
        pool_rule = [rules.pool_areas[s] for s in sc.sides]
        self.pool_ok = [[(pool_rule[s] == "any" or (pool_rule[s] == "beach" and self.beach[a])
                          or (pool_rule[s] == "depot" and self.supply_of[a] == s)) for a in range(na)]
                        for s in (0, 1)]
        # troops
        self.side_of = [self.side_ix[sc.troops[u].side] for u in troops]
        trank = {u: i for i, u in enumerate(sorted(troops))}
        self.trank = [trank[u] for u in troops]
        self.capture_vp = [sc.troops[u].capture_vp for u in troops]
        self.panzer = [sc.troops[u].is_panzer for u in troops]
        self.variable = [bool(sc.troops[u].variable) for u in troops]
        self.start_loc = [self.places[sc.troops[u].start] for u in troops]
        terrain = [sc.areas[a].terrain for a in areas]
        self.bonus = [[sc.troops[u].gw_bonus(terrain[a], 1) for a in range(na)] for u in troops]
        self.bonus_table = [sc.troops[u].variable for u in troops]
        self.has_air = [sc.sides[s] in sc.air for s in (0, 1)]
        self.air_variable = [bool(sc.air[s].variable) if s in sc.air else False for s in sc.sides]
        self.air_bonus = [[sc.air[s].gw_bonus(terrain[a], 1) for a in range(na)] if s in sc.air else [0] * na
                          for s in sc.sides]
        self.air_table = [sc.air[s].variable if s in sc.air else () for s in sc.sides]
        self.air_sorties = [sc.air[s].sorties if s in sc.air else () for s in sc.sides]
        # campaign numbers
        values = rules.value
        has = rules.hooks.__contains__
        self.german_defence = has("german_defence")
        self.reserve_rule = has("tactical_reserve")
        self.carpet_rule = has("carpet_bombing")
        self.beach_rule = has("beach_defence")
        self.forts = has("fortifications")
        self.panzer_rule = has("panzer_units")
        self.moselle_rule = has("t1_moselle_restriction")
        self.dday = has("dday")
        self.caumont_rule = has("caumont_gap")
        self.success_rule = has("german_success")
        self.defence_max = int(values("defence_max_regular"))
        self.defence_from = int(values("defence_from_turn"))
        self.defence_table = tuple(int(v) for v in values("defence_variable"))
        self.carpet_gw = int(values("carpet_gw"))
        self.beach_gw = int(values("beach_gw"))
        self.fortified_gw = int(values("fortified_gw"))
        tdef = values("terrain_defence")
        self.terrain_def = [int(tdef.get(terrain[a], 0)) for a in range(na)]
        self.open_targets = frozenset(aix[a] for a in values("t1_open_targets"))
        self.fallback_adjacent = values("arrival_fallback") == "adjacent"
        self.success_areas = [aix[a] for a in values("german_success_areas")]
        self.success_vp = int(values("german_success_vp"))
        cau = values("caumont")
        self.caumont = (int(cau["turn"]), aix[cau["trigger"]], aix[cau["gap"]], aix[cau["target"]],
                        tix[cau["attacker"]], tix[cau["defender"]]) if cau and self.caumont_rule else None
        if self.dday:
            tonga = sc.tables["tonga"]
            self.tonga = (tix[tonga["unit"]], aix[tonga["area"]], tuple((str(f), bool(t)) for f, t in tonga["rows"]))
            nep = sc.tables["neptune"]
            self.beaches = tuple((aix[b], tix[d], tix[g]) for b, d, g in nep["beaches"])
            self.neptune = tuple((str(f), int(ft), int(until)) for f, ft, until in nep["rows"])
            self.pz21 = tix[nep["counter_attack"]]
        # turns
        self.n_turns = len(sc.turns)
        self.turns = sc.turns
        self.t_arrivals = [[(tix[a.unit], tuple(aix[x] for x in a.areas), a.when == "planning") for a in t.arrivals]
                           for t in sc.turns]
        self.t_withdraw = [[tix[u] for u in t.withdraw] for t in sc.turns]
        self.t_init = [(self.side_ix[t.initiative_side], t.initiative_bonus, self.side_ix[t.tie_side])
                       for t in sc.turns]
        self.t_dday = [("dday" in t.special and self.dday) for t in sc.turns]
        # action codes
        self.ARROW = 1
        self.PLACE = self.ARROW + na * na
        self.MOVE = self.PLACE + nt * (na + 1)
        self.RETREAT = self.MOVE + nt * na
        self.ADVANCE = self.RETREAT + nt * na
        self.COMMIT = self.ADVANCE + nt
        # an item's rank in `Commit`'s order (troops by id, then the extras by their text), and the item of each rank
        self.item_rank: list[int] = [*self.trank, *range(nt, nt + len(TOKENS))]
        self.ranked = [0] * len(self.item_rank)
        for item, r in enumerate(self.item_rank):
            self.ranked[r] = item

    def revision_ok(self, params: dict[str, Any]) -> bool:
        """Whether moves may pass through a full area (`moves.through_full`)."""
        return bool(self.stacking) and int(params.get("revision", REVISION)) >= 2

    # ----- commitments ---------------------------------------------------------------------------------
    def commit_code(self, items: tuple[int, ...]) -> int:
        """The code of a commitment of `items` (in any order): see the module's notes."""
        rank = self.item_rank
        n = len(items)
        if n == 0:
            return self.COMMIT
        if n == 1:
            return self.COMMIT + rank[items[0]] + 1
        ranks = sorted([rank[i] for i in items])
        width = len(rank) + 1
        k = 0
        for r in reversed(ranks):
            k = k * width + r + 1
        return self.COMMIT + k

    def commit_items(self, code: int) -> tuple[int, ...]:
        """The items of a commitment's code, in `Commit`'s order."""
        k = code - self.COMMIT
        width = len(self.item_rank) + 1
        items: list[int] = []
        while k:
            k, r = divmod(k, width)
            if not r:
                raise ValueError(f"{code} is no commitment's code")
            items.append(self.ranked[r - 1])
        return tuple(items)

    # ----- to and from the reference engine's actions ----------------------------------------------------
    def item_name(self, item: int) -> str:
        return TOKENS[item - self.nt] if item >= self.nt else self.troops[item]

    def item_of(self, name: str) -> int:
        return self.nt + TOKENS.index(name) if name.startswith("@") else self.tix[name]

    def action(self, code: int) -> Action:
        """The reference engine's action for a kernel code."""
        na = self.na
        if code == K_PASS:
            return PASS
        if code < self.PLACE:
            frm, to = divmod(code - self.ARROW, na)
            return Arrow(self.areas[frm], self.areas[to])
        if code < self.MOVE:
            u, a = divmod(code - self.PLACE, na + 1)
            return Place(self.troops[u], SPOT if a == na else self.areas[a])
        if code < self.RETREAT:
            u, a = divmod(code - self.MOVE, na)
            return Move(self.troops[u], self.areas[a])
        if code < self.ADVANCE:
            u, a = divmod(code - self.RETREAT, na)
            return Retreat(self.troops[u], self.areas[a])
        if code < self.COMMIT:
            return Advance(self.troops[code - self.ADVANCE])
        return Commit(tuple(self.item_name(i) for i in self.commit_items(code)))

    def code(self, action: Action) -> int:
        """The kernel code of a reference action of the kinds the kernel plays (`ValueError` for others)."""
        na = self.na
        aix, tix = self.aix, self.tix
        if isinstance(action, Pass):
            return K_PASS
        if isinstance(action, Arrow):
            return self.ARROW + aix[action.frm] * na + aix[action.to]
        if isinstance(action, Place):
            return self.PLACE + tix[action.unit] * (na + 1) + (na if action.area == SPOT else aix[action.area])
        if isinstance(action, Move):
            return self.MOVE + tix[action.unit] * na + aix[action.to]
        if isinstance(action, Retreat):
            return self.RETREAT + tix[action.unit] * na + aix[action.to]
        if isinstance(action, Advance):
            return self.ADVANCE + tix[action.unit]
        if isinstance(action, Commit):
            return self.commit_code(tuple(self.item_of(u) for u in action.units))
        raise ValueError(f"the simulation kernel does not play {action.to_str()!r}")


_MAPS: dict[int, tuple[FirestormScenario, KMap]] = {}


def kmap(sc: FirestormScenario) -> KMap:
    """The kernel tables of `sc`, made once per scenario object (a few are kept)."""
    got = _MAPS.get(id(sc))
    if got is None or got[0] is not sc:
        if len(_MAPS) >= 16:
            _MAPS.clear()
        got = _MAPS[id(sc)] = (sc, KMap(sc))
    return got[1]
