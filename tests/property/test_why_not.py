"""One "why not" per decision (issue 13, part 4): each Firestorm decision step's `problem` decides what is legal
and words the refusal, so the two cannot drift apart.

Over random games of every bundled campaign in every way of playing it, at each decision (of the movement
decisions, which list hundreds of typed moves each, about one in four in Firestorm and every second in Kampen om Norge),
every action of the step's kind that could be typed about the position (every arrow between two areas, every group
of up to three troops and extras near the battle, every troop into every area...) is legal exactly when the step's
`problem` finds nothing against it, and a refused one is refused with that reason.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest
from depth import deep

from warroom import rulesets
from warroom.core.errors import IllegalActionError
from warroom.rulesets.firestorm import caen
from warroom.rulesets.firestorm.actions import (
    AIR,
    CARPET,
    DEFENCE,
    NAVAL,
    PASS,
    Advance,
    Arrow,
    Commit,
    Mode,
    Move,
    Order,
    Place,
    Retreat,
)
from warroom.rulesets.firestorm.sea import HARBOUR
from warroom.rulesets.firestorm.sea_legality import NAVAL_STEPS
from warroom.rulesets.firestorm.state import FirestormState
from warroom.rulesets.kampen.actions import Done as KDone
from warroom.rulesets.kampen.actions import Move as KMove
from warroom.rulesets.kampen.actions import Place as KPlace
from warroom.rulesets.kampen.actions import Play as KPlay
from warroom.scenarios import load_game
from warroom.sim.conformance import cases
from warroom.sim.walk import decisions

GAMES = deep(1)
"""Random games per campaign and way of playing (12 cases); every decision step is met in the first."""
KAMPEN_GAMES = deep(1)
"""Random games of Kampen om Norge per variant (basic and advanced, two and three players)."""
KAMPEN_MOVES_EVERY = 2
"""Of a Kampen game's movement decisions, every second one is probed (some 700 typed moves each); every placement."""


def typed(st: FirestormState, rng: random.Random) -> Iterator[Any]:
    """The actions a player could type at this decision: every one of the step's kind about nearby troops and
    every area, and one of each other kind."""
    sc = st.sc
    areas = list(sc.areas)
    troops = list(sc.troops)
    step = st.step
    b = st.battle
    yield from (PASS, Mode("gw"), Arrow(areas[0], areas[1]), Commit(()), Advance(troops[0]),
                Retreat(troops[0], areas[0]), Place(troops[0], areas[0]), Move(troops[0], areas[0]))
    if step in ("arrow", "dday_exploit", "dday_pz21"):
        yield from (Arrow(f, t) for f in areas for t in areas if f != t)
    elif step in ("attack_commit", "defend_commit") and b is not None:
        pool = [u for u, where in st.loc.items() if where in (b.frm, b.to) or where == caen.SPOT]
        pool += [*rng.sample(troops, 2), AIR, NAVAL, DEFENCE, CARPET]
        for n in range(4):
            yield from (Commit(group) for group in combinations(sorted(set(pool)), n))
        yield Commit((pool[0], pool[0]))
    elif step in ("plan_place", "reinforce"):
        for unit in [*st.placing, *rng.sample(troops, 2)]:
            yield from (Place(unit, a) for a in [*areas, caen.SPOT])
    elif step == "retreat" and b is not None:
        for unit in [*b.retreating, *rng.sample(troops, 2)]:
            yield from (Retreat(unit, a) for a in areas)
    elif step == "advance":
        yield from (Advance(u) for u in troops)
    elif step == "moves":
        mover = st.current_player()
        for unit in [u for u in troops if sc.troops[u].side == mover]:
            yield from (Move(unit, a) for a in areas)
    elif step == "mode_choice":
        yield Mode("tabletop")


def test_every_typed_action_is_legal_exactly_when_its_step_finds_nothing_against_it() -> None:
    checked: dict[str, int] = {}
    refused = 0
    for system, scenario, variant in cases("firestorm"):
        for seed in range(GAMES):
            rng = random.Random(seed)
            game: FirestormState = system.new_game(load_game(scenario), dict(variant.params))
            for n, st in enumerate(decisions(game, seed)):
                problem = st.flow.steps[st.step].problem
                if problem is None or st.step in NAVAL_STEPS or (st.step == "moves" and n % 4):
                    continue  # the Strategic Game's orders have their own test below
                legal = set(st.legal_actions())
                for action in legal:
                    assert problem(st, action) == "", (st.step, action.to_str())
                for action in typed(st, rng):
                    why = problem(st, action)
                    assert (why == "") == (action in legal), (scenario, variant.name, seed, st.step,
                                                              action.to_str(), why)
                    if why and rng.random() < 0.005:
                        refused += 1
                        try:
                            st.clone().apply_action(action, st.current_player())
                        except IllegalActionError as exc:
                            assert why in str(exc), (str(exc), why)
                        else:
                            raise AssertionError(f"{action.to_str()!r} was accepted: {why}")
                checked[st.step] = checked.get(st.step, 0) + 1
    steps = {"plan_place", "reinforce", "arrow", "attack_commit", "defend_commit", "mode_choice", "retreat",
             "advance", "moves", "dday_exploit", "dday_pz21"}
    assert steps <= set(checked), f"decisions never met: {sorted(steps - set(checked))}"
    assert refused > 100


def kampen_typed(st: Any, rng: random.Random) -> Iterator[Any]:
    """Every land move and placement a player could type in Kampen om Norge now, and a few of other kinds."""
    board = st.sc.board
    land = sorted(board.land)
    yield from (KDone(), KPlay(next(iter(st.hands[st.country]), "x")), KPlace(land[0]), KMove(land[0], land[1]))
    if st.step == "move":
        for frm in land:
            for to in [*board.neighbours(frm), rng.choice(land)]:
                yield from (KMove(frm, to, n) for n in (1, 2, 3))
            yield KMove(frm, rng.choice(land), 1, rng.choice(land))
    elif st.step == "place":
        yield from (KPlace(a, n) for a in land for n in (1, 2, 3))


def test_kampen_land_moves_and_placements_are_legal_exactly_when_their_step_finds_nothing_against_them() -> None:
    checked: dict[str, int] = {}
    for system, scenario, variant in cases("kampen"):
        for seed in range(KAMPEN_GAMES):
            rng = random.Random(seed)
            moves = 0
            for st in decisions(system.new_game(load_game(scenario), dict(variant.params)), seed):
                if st.step not in ("move", "place"):
                    continue
                if st.step == "move":
                    moves += 1
                    if moves % KAMPEN_MOVES_EVERY:
                        continue
                problem = st.flow.steps[st.step].problem
                legal = set(st.legal_actions())
                for action in legal:
                    assert problem(st, action) == "", (st.step, action.to_str())
                for action in kampen_typed(st, rng):
                    why = problem(st, action)
                    assert (why == "") == (action in legal), (variant.name, seed, st.step, action.to_str(), why)
                    if why and rng.random() < 0.01:
                        with pytest.raises(IllegalActionError) as refused:
                            st.clone().apply_action(action, st.current_player())
                        assert why in str(refused.value) or "is not asked for at this step" in str(refused.value)
                checked[st.step] = checked.get(st.step, 0) + 1
    assert set(checked) == {"move", "place"}


def firestorm_game(name: str) -> FirestormState:
    game: FirestormState = rulesets.new_game(load_game(name))
    return game


def orders_typed(st: FirestormState, rng: random.Random) -> Iterator[Any]:
    """Every order a player could type in Norway's Strategic Game now, about every counter and location."""
    sc = st.sc
    locs = list(sc.strat_areas)
    counters = list(sc.counters)
    yield from (PASS, Order("launch"), Order("halt"), Order("attack"), Order("fight"), Order("evade"),
                Order("stand"), Order("press"))
    yield from (Order("activate", loc, kind) for loc in locs for kind in ("ships", "subs", "air"))
    yield from (Order(verb, c) for verb in ("take", "sortie") for c in counters)
    yield from (Order(verb, loc) for verb in ("sail", "dive", "fly", "bomb", "withdraw") for loc in locs)
    yield from (Order("allocate", c, "", n) for c in [*rng.sample(counters, 12), HARBOUR] for n in (1, 2, 5))
    yield from (Order("aim", c, aim) for c in counters for aim in ("subs", "ships"))
    if st.step == "fleet_moves":
        mover = st.current_player()
        yield from (Move(c, loc) for c in counters if sc.counters[c].side == mover for loc in locs)
        yield from (Move(c, rng.choice(locs)) for c in rng.sample(counters, 6))


def test_every_typed_order_of_the_strategic_game_is_legal_exactly_when_its_step_finds_nothing_against_it() -> None:
    checked: dict[str, int] = {}
    for seed in range(deep(2)):
        rng = random.Random(seed)
        for n, st in enumerate(decisions(firestorm_game("norway"), seed)):
            if st.step not in NAVAL_STEPS or (st.step == "fleet_moves" and n % 6):
                continue
            problem = st.flow.steps[st.step].problem
            assert problem is not None, st.step
            legal = set(st.legal_actions())
            for action in legal:
                assert problem(st, action) == "", (st.step, action.to_str())
            for action in orders_typed(st, rng):
                why = problem(st, action)
                assert (why == "") == (action in legal), (seed, st.step, action.to_str(), why)
                if why and rng.random() < 0.003:
                    with pytest.raises(IllegalActionError):
                        st.clone().apply_action(action, st.current_player())
            checked[st.step] = checked.get(st.step, 0) + 1
    assert {"sa_stuka", "sa_choose", "sa_form", "sa_move", "nv_alloc", "nv_retreat", "fleet_moves"} <= set(checked)
