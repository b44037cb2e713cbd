"""Seeded bot-vs-bot campaigns (Caen and Lorraine) with invariants checked after every action.

Invariants (DESIGN.md, tests in layers):
* every troop of the scenario has exactly one location (``st.loc`` is the single record), and that
  location is an area id or one of the off-board boxes; a troop on the map stands in an area its
  own side controls;
* stacking (Caen: 3 per area) holds at every point the flow stops, but while troops move strategically (one
  area may go one troop over, Caen 4.1);
* the control map covers every area with a valid side;
* VP totals equal their sources: area VP (recomputed here from the map), unit VP (the capture VP
  of the other side's captured troops: in Caen and Lorraine a troop destroyed but not captured goes
  to the pool for no VP) and bonus VP (only Lorraine's German Success, at the very end);
* replaying ``st.record(seed)`` (through its JSON form) rebuilds the same game;
* `apply_action` accepts exactly the actions `legal_actions()` lists (random probes on clones);
* rule oracles written from the rule text: roll-to-destroy targets, capture when surrounded, retreat
  and advance limits, and (Lorraine) Panzer Units must attack and fight alone, the turn 1 US restriction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from depth import deep
from hypothesis import given, settings
from hypothesis import strategies as hst

from warroom.ai import make_bot
from warroom.core.errors import IllegalActionError
from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.core.state import CHANCE, REPORT, TERMINAL, Action
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.rulesets.firestorm.actions import PASS, Advance, Arrow, Commit, Move, Pass, Place, Report, Retreat
from warroom.rulesets.firestorm.battle import ATTACKER, DEFENDER, DRAW, Battle
from warroom.rulesets.firestorm.model import FirestormScenario
from warroom.rulesets.firestorm.state import CAPTURED, GONE, OFF_BOARD
from warroom.rulesets.firestorm.steps import tables_bar_an_attack
from warroom.scenarios import load_scenario

SCENARIOS = ("caen", "lorraine")
BOT_KINDS = ("random", "heuristic")
MODES = ("gw", "tabletop", "mixed")
SEEDS_DEFAULT = deep(40)  # per scenario: each mode and pairing of bots (`setup_for`, 20 seeds a round) twice
# (`make fuzz` plays thousands more through the conformance harness)
PARALLEL_SEEDS = deep(12)  # per scenario, battles in parallel: each mode and pairing of bots once
MAX_ACTIONS = 20_000
ORACLE_STEPS = frozenset({"destroy_roll", "retreat", "advance"})
PROBE_RATE = 0.1  # share of decisions where a random (mostly illegal) action is also tried on a clone
LOCATION_BOXES = frozenset({"pool", "offmap", "reserve", "captured", "gone", "withdrawn"})


def scenario(name: str) -> FirestormScenario:
    return load_scenario(name)


# ----- invariants ---------------------------------------------------------------------------------------
def expected_bonus(st: FirestormState, side: str) -> int:
    """Bonus VP from the rules alone: Lorraine's German Success (+100 once, at the end of the game)."""
    sc = st.sc
    if not (sc.has("german_success") and st.is_terminal() and side == sc.sides[1]):
        return 0
    areas = sc.rules.values["german_success_areas"]
    return int(sc.rules.values["german_success_vp"]) if any(st.control[a] == side for a in areas) else 0


def check_invariants(st: FirestormState) -> None:
    sc = st.sc
    sides = set(sc.sides)
    assert OFF_BOARD == LOCATION_BOXES
    # one location per troop, and a valid one
    assert set(st.loc) == set(sc.troops), "st.loc must list every troop exactly once"
    for unit, where in st.loc.items():
        assert where in sc.areas or where in LOCATION_BOXES, f"{unit} is at unknown location {where!r}"
        if where in sc.areas:
            owner = sc.troops[unit].side
            held = st.control[where]
            assert held == owner, f"{unit} ({owner}) stands in {where}, held by {held}"
        # destroyed troops go to the pool in Caen and Lorraine; 'gone' is Norway's rule
        assert where != GONE or sc.rules.destroyed_to == "gone"
    # stacking
    limit = sc.rules.stacking
    if limit:
        counts: dict[str, int] = {}
        for where in st.loc.values():
            if where in sc.areas:
                counts[where] = counts.get(where, 0) + 1
        over = {a: n for a, n in counts.items() if n > limit}
        if st.step == "moves":  # Caen 4.1: exceeded while moving (one area, by one troop), never when moves end
            assert len(over) <= 1 and set(over.values()) <= {limit + 1}, f"stacking while moving: {over}"
        else:
            assert not over, f"stacking limit {limit} broken at step {st.step!r}: {over}"
    # control
    assert set(st.control) == set(sc.areas)
    assert all(side in sides for side in st.control.values())
    # VP
    for side in sc.sides:
        other = sc.other(side)
        area_vp = sum(a.vp for a in sc.areas.values() if st.control[a.id] == side)
        unit_vp = sum(t.capture_vp for t in sc.troops.values()
                      if t.side == other and st.loc[t.id] == CAPTURED)
        assert st.area_vp(side) == area_vp
        assert st.unit_vp[side] == unit_vp, (
            f"{side} unit VP {st.unit_vp[side]} != capture VP of captured enemy troops {unit_vp}")
        assert st.bonus_vp[side] == expected_bonus(st, side)
        assert st.total_vp(side) == area_vp + unit_vp + st.bonus_vp[side]
    a, b = sc.sides
    diff = st.total_vp(a) - st.total_vp(b)
    assert st.returns() == {a: float(diff), b: float(-diff)}
    # counters
    assert st.battles_left >= 0
    assert all(n >= 0 for n in st.air_left.values())


def check_replay(st: FirestormState, seed: int) -> None:
    record = GameRecord.from_json(st.record(seed).to_json())
    assert record.seed == seed
    sc = st.sc
    again = replay(record, lambda: new_game(sc, record.params))
    assert isinstance(again, FirestormState)
    assert again.is_terminal() == st.is_terminal()
    assert again.control == st.control
    assert again.loc == st.loc
    assert again.unit_vp == st.unit_vp
    assert again.bonus_vp == st.bonus_vp
    assert again.events == st.events
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in st.log]
    assert again.outcome_text() == st.outcome_text()


# ----- driving ----------------------------------------------------------------------------------------------
def random_probe(st: FirestormState, rng: random.Random) -> Action:
    """Any well-formed Firestorm action on this scenario's areas and troops, legal or not."""
    areas = sorted(st.sc.areas)
    troops = sorted(st.sc.troops)
    kind = rng.randrange(7)
    if kind == 0:
        return Arrow(rng.choice(areas), rng.choice(areas))
    if kind == 1:
        return Commit(tuple(rng.sample(troops, rng.randint(1, 2))))
    if kind == 2:
        return Move(rng.choice(troops), rng.choice(areas))
    if kind == 3:
        return Place(rng.choice(troops), rng.choice(areas))
    if kind == 4:
        return Retreat(rng.choice(troops), rng.choice(areas))
    if kind == 5:
        return Advance(rng.choice(troops))
    return PASS


def check_probe(st: FirestormState, probe: Action) -> None:
    """`apply_action` accepts exactly what `legal_actions()` lists (including any fast-path check), and
    refuses everything else with `IllegalActionError`, leaving the state untouched."""
    legal = probe in st.legal_actions()
    twin = st.clone()
    try:
        twin.apply_action(probe)
    except IllegalActionError as exc:
        assert not legal, f"legal action {probe.to_str()!r} refused in step {st.step!r}: {exc}"
        assert str(exc)
        assert twin.loc == st.loc and twin.control == st.control and twin.step == st.step
        assert len(twin.log) == len(st.log)
    else:
        assert legal, f"illegal action {probe.to_str()!r} accepted in step {st.step!r}"


# ----- rule oracles (core 7.3-7.5; Lorraine 4.1 and turn 1), written from the rule text --------------------
GW_DESTROY = ((5, 4, 0), (3, 5, 0), (0, 6, 6))  # difference >= n -> (vs loser, vs winner); 0 = no roll
FOW_DESTROY = ((6, 4), (5, 5), (3, 6))  # rolling side's own VP >= n -> roll needed


def expected_targets(b: Battle) -> list[tuple[str, str, int]]:
    """Roll to destroy: one die per enemy troop committed (never aircraft, carpet bombing or the German
    Defence troop), at the threshold of the GW difference table or the FoW VP table."""
    if b.mode == "gw":
        diff = abs(b.att_total - b.def_total)
        vs_loser, vs_winner = next((lo, wi) for n, lo, wi in GW_DESTROY if diff >= n)
        if b.winner == DRAW:
            need_att = need_def = vs_loser
        else:
            need_att = vs_loser if b.winner == DEFENDER else vs_winner
            need_def = vs_loser if b.winner == ATTACKER else vs_winner
    else:
        need_def = next((need for n, need in FOW_DESTROY if b.att_vp >= n), 0)
        need_att = next((need for n, need in FOW_DESTROY if b.def_vp >= n), 0)
    out = [(u, b.defender, need_def) for u in b.dfn if not u.startswith("@") and need_def]
    out += [(u, b.attacker, need_att) for u in b.att if not u.startswith("@") and need_att]
    return sorted(out)


def panzer_areas(st: FirestormState) -> set[str]:
    """Lorraine 4.1: German areas holding a Panzer Unit next to an enemy area (areas of battles at the table,
    when battles are played in parallel, neither attack nor are attacked)."""
    sc = st.sc
    axis = sc.sides[1]
    at_table = {a for b in st.parked for a in (b.frm, b.to)}
    return {where for u, where in st.loc.items()
            if sc.troops[u].is_panzer and where in sc.areas and st.control[where] == axis and where not in at_table
            and any(st.control[n] != axis and n not in at_table for n in sc.adjacency[where])}


def check_decision(st: FirestormState, legal: Sequence[Action]) -> None:
    """Lorraine decision rules: Panzer Units must attack and fight alone; the turn 1 US restriction."""
    sc = st.sc
    if not sc.has("panzer_units"):
        return
    allies, axis = sc.sides
    who = st.current_player()
    if st.step == "arrow" and who == axis and panzer_areas(st):
        arrows = [a for a in legal if isinstance(a, Arrow)]
        assert arrows and all(a.frm in panzer_areas(st) for a in arrows), "Panzer must attack"
        # a side that attacks only because the initiative winner could not (core 4) may decline
        assert len(arrows) == len(legal) or st.flags.may_pass, "only the fallback attacker may pass"
    if st.step == "arrow" and who == allies and st.turn == 1:
        for a in legal:
            if isinstance(a, Pass):  # the fallback attacker may decline (core 4)
                assert st.flags.may_pass
                continue
            assert isinstance(a, Arrow)
            assert (sc.rivers.get(frozenset((a.frm, a.to))) == "Moselle" or a.to == "A3"
                    or sc.areas[a.to].control == allies), f"turn 1 US arrow {a.to_str()} is barred"
    if st.step in ("attack_commit", "defend_commit"):
        for a in legal:
            assert isinstance(a, Commit)
            if any(u in sc.troops and sc.troops[u].is_panzer for u in a.units):
                assert len(a.units) == 1, f"a Panzer Unit fights alone: {a.to_str()}"


def check_transition(pre: FirestormState, action: Action, post: FirestormState) -> None:
    """After-action rules checked on the state before and after one action."""
    sc = pre.sc
    b = pre.battle
    if b is None:
        return
    if pre.step == "destroy_roll":
        assert sorted(b.targets) == expected_targets(b), f"roll-to-destroy targets {b.targets}"
        if b.winner != ATTACKER:
            assert post.control[b.to] == b.defender, "a draw or a defender's win holds the area"
        elif not any(pre.control[n] == b.defender for n in sc.adjacency[b.to]):
            for u in pre.units_at(b.to, b.defender):
                assert post.loc[u] == CAPTURED, f"{u} is surrounded in {b.to} and must be captured"
    elif pre.step == "retreat" and isinstance(action, Retreat):
        assert action.to in sc.adjacency[b.to] and pre.control[action.to] == b.defender
    elif pre.step == "advance" and isinstance(action, Advance):
        assert b.advanced < sc.rules.advance_cap
        assert not b.survivors or action.unit in b.survivors, "battle survivors advance first"
        assert pre.loc[action.unit] in sc.adjacency[b.to]


def random_report(rng: random.Random) -> Report:
    return Report(rng.randint(0, 6), rng.randint(0, 6))


class Reporter:
    """Answers REPORT with random tabletop victory points (0-6 each)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: Any, legal: Sequence[Action]) -> Action:
        return random_report(self.rng)


def check_parallel(st: FirestormState, engaged: dict[str, str]) -> None:
    """Battles in parallel: parked battles hold disjoint areas, their committed troops stay at their table,
    and the Strategic Phase starts only once every parked battle is done."""
    held = [a for b in st.parked for a in (b.frm, b.to)]
    assert len(held) == len(set(held)), f"two parked battles share an area: {held}"
    for u, where in engaged.items():
        if any(u in (*b.att, *b.dfn) for b in st.parked):
            assert st.loc[u] == where, f"{u}, committed to a parked battle, moved from {where} to {st.loc[u]}"
    assert [b.no for b in st.parked] == sorted(b.no for b in st.parked)
    if st.step == "initiative" and st.current_player() == CHANCE:  # a battle starts only where tables allow it
        assert not tables_bar_an_attack(st), "an initiative was rolled while the tables barred a side's attack"
    if st.phase() == "strategic":
        assert not st.parked, "the Strategic Phase began with battles still at the table"


def play_checked(name: str, seed: int, mode: str, kinds: Sequence[str], parallel: bool = False) -> FirestormState:
    """Play one whole campaign, checking every invariant after every action.

    With `parallel`, battles go to the table and their results arrive at random decision points."""
    sc = scenario(name)
    st = new_game(sc, {"mode": mode, "parallel": True} if parallel else {"mode": mode})
    dice_rng = random.Random(seed)
    report_rng = random.Random(seed ^ 0x5EED)
    probe_rng = random.Random(seed ^ 0xBAD)
    bots: dict[str, Any] = {side: make_bot(kind, random.Random(seed * 31 + i))
                            for i, (side, kind) in enumerate(zip(sc.sides, kinds, strict=True))}
    check_invariants(st)
    engaged: dict[str, str] = {}  # troops committed to parked battles -> where they stood when parked
    for _ in range(MAX_ACTIONS):
        who = st.current_player()
        if who == TERMINAL:
            break
        action: Action
        waiting = [b.no for b in st.parked if not b.winner]
        if waiting and who != CHANCE and (who == REPORT or report_rng.random() < 0.2):
            vp = random_report(report_rng)
            action = Report(vp.attacker_vp, vp.defender_vp, report_rng.choice(waiting))
        elif who == CHANCE:
            assert st.dice_needed() > 0, f"chance node {st.step!r} rolls no dice"
            action = st.chance_dice().sample(dice_rng)
        elif who == REPORT:
            action = random_report(report_rng)
        else:
            assert who in sc.sides, f"unexpected player {who!r}"
            legal = st.legal_actions()
            assert legal, f"{who} must act in step {st.step!r} but has no legal action"
            action = bots[who].choose(st, legal)
            assert action in legal
            check_decision(st, legal)
            assert st.parse_action(action.to_str()) == action, "text codec must round-trip"
            if probe_rng.random() < PROBE_RATE:
                check_probe(st, random_probe(st, probe_rng))
                check_probe(st, legal[probe_rng.randrange(len(legal))])
        pre = st.clone() if st.step in ORACLE_STEPS else None
        st.apply_action(action)
        check_invariants(st)
        if parallel:
            engaged = {u: st.loc[u] for b in st.parked for u in (*b.att, *b.dfn) if u in sc.troops} | {
                u: w for u, w in engaged.items() if any(u in (*b.att, *b.dfn) for b in st.parked)}
            check_parallel(st, engaged)
        if pre is not None:
            check_transition(pre, action, st)
    else:
        pytest.fail(f"{name} seed {seed} did not finish within {MAX_ACTIONS} actions")
    assert st.is_terminal()
    assert st.legal_actions() == ()
    return st


def setup_for(seed: int) -> tuple[str, tuple[str, str]]:
    """A deterministic mix of resolution modes and bot pairings for a seed."""
    mode = MODES[0] if seed % 5 < 3 else MODES[seed % 5 - 2]
    kinds = (BOT_KINDS[seed % 2], BOT_KINDS[(seed // 2) % 2])
    return mode, kinds


def run_seeds(name: str, seeds: range) -> None:
    for seed in seeds:
        mode, kinds = setup_for(seed)
        st = play_checked(name, seed, mode, kinds)
        check_replay(st, seed)


# ----- tests ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SCENARIOS)
def test_seeded_campaigns_keep_invariants(name: str) -> None:
    run_seeds(name, range(SEEDS_DEFAULT))


@pytest.mark.parametrize("name", SCENARIOS)
def test_tabletop_campaign_with_random_reports(name: str) -> None:
    st = play_checked(name, 4242, "tabletop", ("heuristic", "random"))
    assert any(e.side == REPORT for e in st.log), "a tabletop campaign must ask for reported results"
    check_replay(st, 4242)


@pytest.mark.parametrize("name", SCENARIOS)
def test_battles_in_parallel_keep_invariants_and_replay(name: str) -> None:
    """Club play: tabletop battles parked at the table, results at random decision points and in any order."""
    parked = numbered = 0
    for seed in range(PARALLEL_SEEDS):
        mode = "tabletop" if seed % 3 else "mixed"
        st = play_checked(name, seed, mode, (BOT_KINDS[seed % 2], BOT_KINDS[(seed // 2) % 2]), parallel=True)
        check_replay(st, seed)
        parked += sum(1 for e in st.events if "goes to the table" in e[1])
        numbered += sum(1 for e in st.log if e.side == REPORT and e.action.count(" ") == 3)
    assert parked > PARALLEL_SEEDS, "battles in parallel must actually park battles"
    assert numbered == parked, "every parked battle gets exactly one numbered result"


@pytest.mark.parametrize("name", SCENARIOS)
def test_play_helper_finishes_every_mode(name: str) -> None:
    """The engine's own `play` loop drives a campaign to the end in every mode."""
    from warroom.core.game import play

    sc = scenario(name)
    for i, mode in enumerate(MODES):
        st = new_game(sc, {"mode": mode})
        players: dict[str, Any] = {s: make_bot("random", random.Random(i + 10)) for s in sc.sides}
        players[REPORT] = Reporter(random.Random(i + 20))
        play(st, players, random.Random(i))
        assert st.is_terminal()
        check_invariants(st)


@settings(max_examples=deep(15), deadline=None)
@given(seed=hst.integers(0, 10**6), name=hst.sampled_from(SCENARIOS), mode=hst.sampled_from(MODES),
       kinds=hst.tuples(hst.sampled_from(BOT_KINDS), hst.sampled_from(BOT_KINDS)))
def test_hypothesis_campaigns(seed: int, name: str, mode: str, kinds: tuple[str, str]) -> None:
    st = play_checked(name, seed, mode, kinds)
    check_replay(st, seed)


@settings(max_examples=deep(15), deadline=None)
@given(seed=hst.integers(0, 10**6), name=hst.sampled_from(SCENARIOS), cut=hst.floats(0.0, 1.0))
def test_clone_is_independent(seed: int, name: str, cut: float) -> None:
    """A clone taken mid-game and played on leaves the original untouched."""
    st = play_checked(name, seed, "gw", ("random", "random"))
    record = st.record(seed)
    n = int(len(record.log) * cut)
    sc = st.sc
    partial = new_game(sc, record.params)
    for entry in record.log[:n]:
        partial.apply_action(partial.parse_action(entry.action))
    before = (dict(partial.control), dict(partial.loc), dict(partial.unit_vp), list(partial.events),
              partial.step, partial.current_player())
    twin = partial.clone()
    for entry in record.log[n:]:
        twin.apply_action(twin.parse_action(entry.action))
    assert twin.is_terminal()
    assert twin.loc == st.loc and twin.control == st.control and twin.events == st.events
    after = (dict(partial.control), dict(partial.loc), dict(partial.unit_vp), list(partial.events),
             partial.step, partial.current_player())
    assert before == after
