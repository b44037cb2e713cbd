"""Seeded bot-vs-bot Norway land campaigns (RandomBot and HeuristicBot) with the land hooks on, invariants
checked after every action and replay equality (digest 1.6, 3.3-3.5, 9.3; pattern of test_random_play.py).

Invariants:
* nothing ever stands in a pass-through area (Ofotfjord), whose control is its harbour holder's;
* a troop on the map stands in an area its side holds;
* unit VP are the capture VP of the enemy's destroyed and captured troops (withdrawn troops score nothing);
* bonus VP are exactly the ledger of paid bonuses, each key paid once, to its side, at its printed value;
* from turn 4 no battle is fought on the South-Central map, and no Allied troop stands there;
* at the end no British, French or Polish troop is left on the Narvik map.
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
from warroom.core.state import REPORT, Action
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.rulesets.firestorm.actions import Report
from warroom.rulesets.firestorm.norway import fjord_holder
from warroom.rulesets.firestorm.state import CAPTURED, GONE, OFF_BOARD
from warroom.scenarios import load_scenario

GAMES = deep(12)  # each of the four set-ups (mode and bots, by seed % 4) 3 times; more at a deeper WARROOM_TEST_DEPTH
MODES = ("gw", "gw", "mixed", "tabletop")
SCN, NAR = "south-central", "narvik"


class Reporter:
    """Answers tabletop battles with random victory points."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: Any, legal: Sequence[Action]) -> Action:
        return Report(self.rng.randint(0, 6), self.rng.randint(0, 6))


def bonus_values(st: FirestormState) -> dict[str, set[tuple[str, int]]]:
    """Every (side, vp) a bonus key may pay, from the scenario data."""
    sc = st.sc
    out: dict[str, set[tuple[str, int]]] = {}
    for t in sc.turns:
        for b in t.bonus:
            out.setdefault(b.key, set()).add((b.side, b.vp))
    closure = sc.rules.value("map_closure")
    out["t3:map_closure"] = {(sc.sides[0], int(closure["vp"]))}
    for t in sc.turns:  # the Strategic Game: landings (T1 +5 each) and Allied ships sunk in T4 (+5 each)
        for a in t.arrivals:
            if a.landing and t.landing_vp:
                out.setdefault(f"landing:{a.landing}", set()).add((sc.sides[0], t.landing_vp))
        if t.sunk_vp:
            for c in sc.counters.values():
                out.setdefault(f"sunk:{c.id}", set()).add((sc.sides[1], t.sunk_vp))
    return out


def check(st: FirestormState) -> None:
    sc = st.sc
    areas = sc.areas
    for u, where in st.loc.items():
        assert where in areas or where in OFF_BOARD, (u, where)
        assert where not in sc.no_stop, f"{u} stands in the fjord at step {st.step!r}"
        if where in areas:
            assert st.control[where] == sc.troops[u].side, f"{u} in {where} held by {st.control[where]}"
    navy = st.navy
    assert navy is not None
    for side in sc.sides:
        lost = sum(t.capture_vp for t in sc.troops.values()
                   if t.side != side and st.loc[t.id] in (GONE, CAPTURED))
        sunk = sum(c.vp for c in sc.counters.values() if c.side != side and navy.where[c.id] == GONE)
        assert st.unit_vp[side] == lost + sunk
    paid: dict[str, tuple[str, int]] = st.flags.bonus_paid
    allowed = bonus_values(st)
    for key, got in paid.items():
        assert got in allowed[key], (key, got)
    for side in sc.sides:
        assert st.bonus_vp[side] == sum(vp for s, vp in paid.values() if s == side)
    if st.turn == 4 or st.is_terminal():
        assert SCN in st.flags.closed_maps
        assert not any(w in areas and areas[w].map == SCN and sc.troops[u].side == sc.sides[0]
                       for u, w in st.loc.items())
        if st.battle is not None:
            assert areas[st.battle.to].map == NAR


def test_norway_land_campaigns_keep_invariants_and_replay() -> None:
    sc = load_scenario("norway")
    kinds = ("random", "heuristic")
    seen_bonus = 0
    for seed in range(GAMES):
        mode = MODES[seed % len(MODES)]
        st = new_game(sc, {"mode": mode})
        players: dict[str, Any] = {side: make_bot(kinds[(seed >> i) & 1], random.Random(seed * 7 + i))
                                   for i, side in enumerate(sc.sides)}
        players[REPORT] = Reporter(random.Random(seed ^ 0x5EED))

        def after(who: str, action: Action, st: FirestormState = st) -> None:
            check(st)
            naval = st.step.startswith(("sa_", "nv_")) or st.step == "fleet_moves"  # the harbour may change hands
            if st.current_player() in sc.sides and sc.no_stop and not naval:
                assert all(st.control[a] == fjord_holder(st) for a in sc.no_stop), st.step

        check(st)
        play(st, players, random.Random(seed), on_action=after)
        assert st.is_terminal()
        wrapped = {"british", "french", "polish"}
        assert not [u for u, w in st.loc.items() if w in sc.areas and sc.areas[w].map == NAR
                    and sc.troops[u].nation in wrapped], "the turn 4 wrap-up empties the Narvik map"
        seen_bonus += bool(st.flags.bonus_paid)
        record = GameRecord.from_json(st.record(seed).to_json())
        again = replay(record, functools.partial(new_game, sc, record.params))
        assert isinstance(again, FirestormState)
        assert (again.loc, again.control, again.unit_vp, again.bonus_vp, again.events) == (
            st.loc, st.control, st.unit_vp, st.bonus_vp, st.events)
        assert again.outcome_text() == st.outcome_text()
    assert seen_bonus == GAMES, "every campaign pays a bonus (the turn 3 closure or the ports)"
