"""Seeded bot-vs-bot Norway campaigns with the Strategic Game on: invariants after every action, exact
replay, trusted play equal to checked play, clone independence (digest 6 and 9; plan section 5).

Invariants (checked after every action of `GAMES` campaigns, 40 at the default depth, RandomBot and HeuristicBot
mixed per side):
* no two hostile surface groups share a Strategic Map location outside a fight (6.4: "enemy surface
  ships can never share an area except while fighting");
* after each Strategic Phase (at the next turn's first decision) every airfield holds no more aircraft
  than `sea.airfield_limit` allows (1.4, 7.6, 11.37);
* carrier aircraft are where their carrier is, or gone (5.3);
* `actions_left >= 0`; activated units are on the map (or were destroyed after activating);
* unit VP are the VP of the enemy's gone and captured troops plus its destroyed counters (6.13, 9.1);
* bonus VP equal the ledger `st.flags.bonus_paid` (9.3);
* counters stand only where their kind may be (ships at sea or in a harbour, never in the enemy's home
  port; land aircraft on a friendly airfield; Ju-87s on sortie only);
* a clone's navy is independent: mutating it leaves the original unchanged.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

from depth import deep

from warroom.ai import make_bot
from warroom.core.game import play, replay
from warroom.core.log import GameRecord
from warroom.core.state import CHANCE, REPORT, Action
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.rulesets.firestorm.actions import Report
from warroom.rulesets.firestorm.fleet import NEVER, SORTIE, NavalState, is_surface
from warroom.rulesets.firestorm.model import FirestormScenario
from warroom.rulesets.firestorm.sea import airfield_limit
from warroom.rulesets.firestorm.state import CAPTURED, GONE, OFFMAP
from warroom.scenarios import load_scenario

GAMES = deep(40)  # each of the four set-ups (mode and bots, by seed % 4) 10 times; a deeper WARROOM_TEST_DEPTH
# plays more, and `make fuzz` thousands more through the conformance harness
REPLAY_EVERY = 3  # replay a third of the games (each replay costs as much as the game)
TRUSTED_SEEDS = (0, 1, 2, 3)
PROBE_SEEDS = range(6)
PROBE_CAP = 12  # at most this many offered actions tried per decision (spread over the list)
NAVAL_STEPS = frozenset({"sa_stuka", "sa_choose", "sa_form", "sa_move", "nv_evade", "nv_alloc", "nv_retreat",
                         "nv_reply", "fleet_moves"})
MODES = ("gw", "gw", "mixed", "tabletop")
KINDS = ("random", "heuristic")
BOXES = frozenset({OFFMAP, GONE, SORTIE, NEVER})
FIGHT_STAGES = frozenset({"evade", "combat", "retreat", "reply", "aim"})  # aim: 6.8 mixed defence


class Reporter:
    """Answers tabletop battles with random victory points."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: Any, legal: Sequence[Action]) -> Action:
        return Report(self.rng.randint(0, 6), self.rng.randint(0, 6))


def nav(st: FirestormState) -> NavalState:
    assert st.navy is not None
    return st.navy


def players_for(sc: FirestormScenario, seed: int) -> dict[str, Any]:
    players: dict[str, Any] = {side: make_bot(KINDS[(seed >> i) & 1], random.Random(seed * 7 + i))
                               for i, side in enumerate(sc.sides)}
    players[REPORT] = Reporter(random.Random(seed ^ 0x5EED))
    return players


def in_fight(navy: NavalState) -> bool:
    return navy.combat is not None or bool(navy.retreating) or navy.stage in FIGHT_STAGES


class Facts:
    """What the checks read of the scenario, gathered once (they run after every action)."""

    def __init__(self, sc: FirestormScenario) -> None:
        self.sc = sc  # kept, so that the id it is filed under is not reused
        counters = sc.counters.values()
        self.surface = frozenset(c.id for c in counters if is_surface(c))
        self.carried = [(c.id, c.carrier) for c in counters if c.carrier]  # carrier aircraft and their carriers
        self.troops = [(t.id, t.side, t.capture_vp) for t in sc.troops.values()]
        self.counters = [(c.id, c.side, c.vp) for c in counters]


_FACTS: dict[int, Facts] = {}


def facts(sc: FirestormScenario) -> Facts:
    got = _FACTS.get(id(sc))
    if got is None:
        got = _FACTS[id(sc)] = Facts(sc)
    return got


def check_locations(st: FirestormState) -> None:
    """Every counter stands where its kind may be."""
    sc = st.sc
    navy = nav(st)
    where = navy.where
    for u, w in where.items():
        c = sc.counters[u]
        if w in BOXES:
            assert w != SORTIE or c.land_sortie, (u, w)
            continue
        s = sc.strat_areas[w]
        if c.carrier:
            assert w == where[c.carrier], f"{u} at {w}, its carrier {c.carrier} at {where[c.carrier]}"
        elif c.is_aircraft:
            assert s.kind == "airfield" and s.side == c.side, (u, w)
        else:
            assert s.kind in ("sea", "harbour", "home_port"), (u, w)
            assert s.kind != "home_port" or s.side == c.side, f"{u} in the enemy's home port {w}"
    for u, carrier in facts(sc).carried:  # carrier aircraft are lost with their carrier (5.3)
        if where[carrier] == GONE:
            assert where[u] in (GONE, NEVER), (u, where[u])


def check_no_shared_seas(st: FirestormState) -> None:
    sc = st.sc
    navy = nav(st)
    if in_fight(navy):
        return
    surface = facts(sc).surface
    held: dict[str, str] = {}
    for u, w in navy.where.items():
        if w in BOXES or u not in surface:
            continue
        side = sc.counters[u].side
        other = held.setdefault(w, side)
        assert other == side, f"hostile surface ships share {w} at step {st.step} (stage {navy.stage})"


def check_airfields(st: FirestormState) -> None:
    sc = st.sc
    navy = nav(st)
    counts: dict[tuple[str, str], int] = {}
    for u, w in navy.where.items():
        c = sc.counters[u]
        if c.is_aircraft and not c.carrier and w in sc.strat_areas:
            counts[(w, c.side)] = counts.get((w, c.side), 0) + 1
    for (w, side), n in counts.items():
        limit = airfield_limit(st, w, side)
        assert limit is None or n <= limit, f"turn {st.turn}: {n} {side} aircraft at {w}, limit {limit}"


def check_vp(st: FirestormState) -> None:
    """Each side's unit VP are the capture VP of the other side's gone and captured troops and the VP of its
    destroyed counters."""
    sc = st.sc
    navy = nav(st)
    known = facts(sc)
    lost = dict.fromkeys(sc.sides, 0)  # the VP each side's losses give the other
    for t, side, vp in known.troops:
        if st.loc[t] in (GONE, CAPTURED):
            lost[side] += vp
    sunk = dict.fromkeys(sc.sides, 0)
    for c, side, vp in known.counters:
        if navy.where[c] == GONE:
            sunk[side] += vp
    for side in sc.sides:
        gained = sum(lost[s] + sunk[s] for s in sc.sides if s != side)
        assert st.unit_vp[side] == gained, (side, st.unit_vp[side], lost, sunk)
    paid: dict[str, tuple[str, int]] = st.flags.bonus_paid
    for side in sc.sides:
        assert st.bonus_vp[side] == sum(vp for s, vp in paid.values() if s == side)


def check(st: FirestormState) -> None:
    navy = nav(st)
    assert navy.actions_left >= 0
    for u in navy.activated:
        assert navy.where[u] not in (OFFMAP, SORTIE, NEVER), f"{u} activated at {navy.where[u]}"
    check_locations(st)
    check_no_shared_seas(st)
    check_vp(st)


def check_clone(st: FirestormState) -> None:
    """Mutating a clone's navy leaves the original untouched."""
    navy = nav(st)
    before = (dict(navy.where), set(navy.activated), list(navy.group), repr(navy.combat), dict(navy.zones),
              set(navy.closed_harbours), dict(navy.landed), list(navy.retreating), navy.actions_left)
    twin = nav(st.clone())
    for u in list(twin.where):
        twin.where[u] = GONE
    twin.activated.add("x")
    twin.group.append("x")
    twin.zones["x"] = "y"
    twin.closed_harbours.add("x")
    twin.landed["x"] = "ok"
    twin.retreating.append("x")
    twin.actions_left += 5
    if twin.combat is not None:
        twin.combat.hits["x"] = 9
        for v in twin.combat.volleys:
            v.alloc["x"] = 1
    after = (dict(navy.where), set(navy.activated), list(navy.group), repr(navy.combat), dict(navy.zones),
             set(navy.closed_harbours), dict(navy.landed), list(navy.retreating), navy.actions_left)
    assert after == before


def run(seed: int, sc: FirestormScenario, trusted: bool = False, checks: bool = True) -> FirestormState:
    st = new_game(sc, {"mode": MODES[seed % len(MODES)]})
    st.record_events = False
    seen = {"turn": st.turn, "n": 0}

    def after(who: str, action: Action) -> None:
        seen["n"] += 1
        check(st)
        if st.turn != seen["turn"] and st.current_player() != CHANCE:
            seen["turn"] = st.turn  # the Strategic Phase is over and the next turn's actions began
            check_airfields(st)
        if (seen["n"] % 97 == 0 or in_fight(nav(st))) and seen["n"] % 7 == 0:
            check_clone(st)

    if checks:
        check(st)
    play(st, players_for(sc, seed), random.Random(seed), on_action=after if checks else None, trusted=trusted)
    assert st.is_terminal()
    return st


def test_norway_campaigns_keep_the_strategic_invariants_and_replay() -> None:
    sc = load_scenario("norway")
    fights = sunk = 0
    for seed in range(GAMES):
        st = run(seed, sc)
        navy = nav(st)
        sunk += sum(1 for w in navy.where.values() if w == GONE)
        fights += sum(1 for e in st.log if e.action.startswith(("allocate", "fight", "evade", "attack", "fly", "bomb")))
        if seed % REPLAY_EVERY == 0:
            record = GameRecord.from_json(st.record(seed).to_json())
            again = replay(record, functools.partial(new_game, sc, record.params))
            assert isinstance(again, FirestormState) and again.navy is not None
            assert (again.loc, again.control, again.unit_vp, again.bonus_vp, again.flags.bonus_paid) == (
                st.loc, st.control, st.unit_vp, st.bonus_vp, st.flags.bonus_paid)
            assert dict(again.navy.where) == dict(navy.where)
            assert again.outcome_text() == st.outcome_text()
    assert sunk > GAMES and fights > GAMES, "the bots must fight at sea for these invariants to mean anything"


def test_trusted_norway_play_equals_checked_play() -> None:
    sc = load_scenario("norway")
    for seed in TRUSTED_SEEDS:
        checked, fast = run(seed, sc, checks=False), run(seed, sc, trusted=True, checks=False)
        assert fast.log == checked.log
        assert dict(nav(fast).where) == dict(nav(checked).where)
        assert fast.outcome_text() == checked.outcome_text()


class Prober:
    """Wraps a bot: at every Strategic Game decision, every offered action is first applied to a clone,
    through its text form, to show the game never offers an action that then raises."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.tried = 0

    def choose(self, state: Any, legal: Sequence[Action]) -> Action:
        if state.step in NAVAL_STEPS:
            stride = max(1, len(legal) // PROBE_CAP)
            for action in legal[::stride]:
                twin = state.clone()
                twin.apply_action(twin.parse_action(action.to_str()), twin.current_player())
                check(twin)
                self.tried += 1
        chosen: Action = self.bot.choose(state, legal)
        return chosen


def test_every_offered_strategic_action_applies_cleanly() -> None:
    sc = load_scenario("norway")
    tried = 0
    for seed in PROBE_SEEDS:
        st = new_game(sc, {"mode": "gw"})
        st.record_events = False
        players = players_for(sc, seed)
        probers = {side: Prober(players[side]) for side in sc.sides}
        play(st, {**players, **probers}, random.Random(seed))
        tried += sum(p.tried for p in probers.values())
    assert tried > 2000
