"""The draft Norway campaign already runs on the shared engine (generic Firestorm rules; the Norway
supply rules and the Strategic Game come next, see docs/norway-plan.md)."""

from __future__ import annotations

import functools
import random

from warroom.ai import make_bot
from warroom.core.game import play, replay
from warroom.rulesets.firestorm import new_game
from warroom.rulesets.firestorm.state import CAPTURED, GONE, OFF_BOARD
from warroom.scenarios import bundled_ids, load_scenario


def test_norway_is_a_draft_not_offered_for_play() -> None:
    sc = load_scenario("norway")
    assert sc.status == "draft"
    assert "norway" not in bundled_ids() and "norway" in bundled_ids(drafts=True)
    assert len(sc.strat_areas) > 30 and sc.counters, "the Strategic Map and its counters are loaded"


def test_draft_land_game_runs_and_replays() -> None:
    sc = load_scenario("norway")
    for seed in range(6):
        st = new_game(sc)
        bots = {"allies": make_bot("heuristic", random.Random(seed)), "axis": make_bot("random", random.Random(-seed))}
        play(st, bots, random.Random(seed))
        assert st.is_terminal()
        assert all(where in sc.areas or where in OFF_BOARD for where in st.loc.values())
        lost = [u for u, where in st.loc.items() if where in (GONE, CAPTURED)]
        sunk = [c for c, where in st.navy.where.items() if where == GONE] if st.navy is not None else []
        assert st.unit_vp["allies"] + st.unit_vp["axis"] == sum(sc.troops[u].capture_vp for u in lost) + sum(
            sc.counters[c].vp for c in sunk), (
            "destroyed troops are gone for good and score their VP (destroyed_to = gone)")
        again = replay(st.record(seed), functools.partial(new_game, sc, dict(st.params)))
        assert again.log == st.log  # type: ignore[attr-defined]
