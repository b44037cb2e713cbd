"""Battles in parallel (parallel.py): parking at the table, locks, out-of-turn results, after-action order."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from warroom.ai import make_bot
from warroom.core.errors import IllegalActionError, SaveError
from warroom.core.game import replay
from warroom.core.log import GameRecord, LogEntry
from warroom.core.state import CHANCE, REPORT
from warroom.rulesets.firestorm import FirestormState, new_game, parallel
from warroom.rulesets.firestorm.actions import Advance, Arrow, Report
from warroom.rulesets.firestorm.battle import Battle
from warroom.scenarios import load_scenario

Stop = Callable[[FirestormState], bool]


def game(scenario: str = "caen") -> FirestormState:
    return new_game(load_scenario(scenario), {"mode": "tabletop", "parallel": True})


def run_until(st: FirestormState, stop: Stop, seed: int, limit: int = 5000) -> bool:
    """Play with random bots and never report a parked battle, until `stop(st)`; False if it never holds."""
    dice = random.Random(seed)
    bots = {s: make_bot("random", random.Random(seed * 7 + i)) for i, s in enumerate(st.sc.sides)}
    for _ in range(limit):
        if stop(st):
            return True
        who = st.current_player()
        if st.is_terminal() or st.step == "await_reports":
            return False
        if who == CHANCE:
            st.apply_action(st.chance_dice().sample(dice))
        elif who == REPORT:
            st.apply_action(Report(3, 3))  # D-Day rows and special battles are reported in turn
        else:
            st.apply_action(bots[who].choose(st, st.legal_actions()))
    return False


def find(stop: Stop, scenario: str = "caen", seeds: int = 60) -> FirestormState:
    for seed in range(seeds):
        st = game(scenario)
        if run_until(st, stop, seed):
            return st
    pytest.fail("no seeded game reached the wanted position")


def at_side_decision(st: FirestormState) -> bool:
    return st.current_player() in st.sc.sides


def test_a_tabletop_battle_goes_to_the_table_and_the_turn_goes_on() -> None:
    st = find(lambda s: len(s.parked) == 1 and at_side_decision(s))
    b = st.parked[0]
    assert b.parked and 1 <= b.no <= st.battle_no and not b.winner
    assert st.battle is not b and st.battles_left < st.battles_total, "a battle at the table is counted"
    assert any("goes to the table" in text for _, text in st.events)
    view = st.view(None)
    assert [o["no"] for o in view["open_battles"]] == [b.no]
    assert view["open_battles"][0]["waiting_for_result"] is True


def test_the_areas_at_a_table_take_no_new_battle_arrow() -> None:
    def arrow_touching_a_table(s: FirestormState) -> bool:
        if not (s.parked and s.step == "arrow"):
            return False
        return bool(blocked_arrows(s))

    st = find(arrow_touching_a_table, seeds=200)
    locked = parallel.locked_areas(st)
    legal = st.legal_actions()
    assert all(a.frm not in locked and a.to not in locked for a in legal if isinstance(a, Arrow))
    arrow = blocked_arrows(st)[0]
    with pytest.raises(IllegalActionError, match=r"battle \d+ is being played on the table"):
        st.clone().apply_action(arrow)


def blocked_arrows(st: FirestormState) -> list[Arrow]:
    """Arrows the current attacker could draw were no battle at the table."""
    side = st.attacker
    locked = parallel.locked_areas(st)
    return [Arrow(frm, to) for frm in st.sc.areas if st.control[frm] == side and st.units_at(frm, side)
            for to in st.sc.adjacency[frm] if st.control[to] != side and (frm in locked or to in locked)
            and to not in st.sc.no_stop]


def test_a_result_arrives_out_of_turn_and_its_after_action_waits_for_the_next_break() -> None:
    st = find(lambda s: len(s.parked) == 1 and s.step in ("attack_commit", "defend_commit"))
    no = st.parked[0].no
    step, who, logged = st.step, st.current_player(), len(st.log)
    st.apply_action(Report(5, 1, no))
    assert (st.step, st.current_player()) == (step, who), "the generals' decision is not interrupted"
    assert st.log[logged] == LogEntry(f"report {no} 5 1", REPORT, st.turn, "battle", False)
    assert st.parked[0].winner == "attacker"
    run_until(st, lambda s: not s.parked or (s.battle is not None and s.battle.no == no), 1)
    assert any(text.startswith(f"After-action of battle {no}") for _, text in st.events)


def test_bad_results_are_refused_with_a_reason_and_change_nothing() -> None:
    st = find(lambda s: len(s.parked) == 2 and at_side_decision(s))
    first, second = (b.no for b in st.parked)
    before = (len(st.log), st.step, [b.winner for b in st.parked])
    cases = [
        (Report(3, 3, 9), rf"battle 9 is not at the table this turn \(battles waiting for a result: "
                          rf"{first}, {second}\)"),
        (Report(7, 1, first), "from 0 to 6"),
    ]
    for action, message in cases:
        with pytest.raises(IllegalActionError, match=message):
            st.apply_action(action)
    with pytest.raises(IllegalActionError, match="cannot act now"):
        st.apply_action(Report(3, 3, first), st.sc.sides[0] if st.current_player() != st.sc.sides[0]
                        else st.sc.sides[1])
    assert (len(st.log), st.step, [b.winner for b in st.parked]) == before
    st.apply_action(Report(3, 3, first))
    with pytest.raises(IllegalActionError, match="already has its result"):
        st.apply_action(Report(3, 3, first))


def test_numbered_results_need_a_battle_at_the_table_and_the_wait_needs_a_number() -> None:
    st = new_game(load_scenario("caen"), {"mode": "tabletop"})
    assert run_until(st, lambda s: s.step == "report" and s.battle is not None and s.battle.kind == "normal", 0)
    with pytest.raises(IllegalActionError, match="being fought now is reported without a number"):
        st.apply_action(Report(3, 3, 1))
    waiting = find(lambda s: s.step == "await_reports")
    assert waiting.step == "await_reports" and waiting.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="name the battle"):
        waiting.apply_action(Report(3, 3))


def test_the_strategic_phase_waits_for_every_battle_at_the_table() -> None:
    st = game()
    for seed in range(60):
        st = game()
        run_until(st, lambda s: s.step == "await_reports", seed)
        if st.step == "await_reports" and len(st.parked) >= 2:
            break
    assert st.step == "await_reports" and st.current_player() == REPORT and st.phase() == "battle"
    for b in list(st.parked):
        assert st.phase() == "battle"
        st.apply_action(Report(4, 1, b.no))
        run_until(st, lambda s: s.step in ("await_reports", "reinforce", "moves") or s.phase() == "strategic", 3)
    assert not st.parked and st.phase() == "strategic"


def test_after_actions_run_in_battle_order_where_battles_share_areas() -> None:
    st = game()
    adjacency = st.sc.adjacency
    allies, axis = st.sc.sides
    frm, to = next((a, n) for a in sorted(st.sc.areas) for n in adjacency[a])
    near_frm, near_to = next((a, n) for a in adjacency[to] for n in adjacency[a]
                             if a not in (frm, to) and n not in (frm, to) and n != a)
    taken = {frm, to, *adjacency[to], near_frm, near_to, *adjacency[near_to]}
    far_frm, far_to = next((a, n) for a in sorted(st.sc.areas) for n in adjacency[a]
                           if not {a, n, *adjacency[n]} & taken)
    one = Battle("normal", allies, axis, frm, to, no=1, parked=True)
    near = Battle("normal", allies, axis, near_frm, near_to, no=2, parked=True)
    far = Battle("normal", allies, axis, far_frm, far_to, no=3, parked=True)
    st.parked = [one, near, far]
    assert parallel.ready(st) is None
    far.winner = near.winner = "defender"
    assert parallel.ready(st) is far, "a battle sharing no area goes ahead of earlier ones"
    st.parked = [one, near]
    assert parallel.ready(st) is None, "a battle sharing an area waits for the earlier one"
    one.winner = "attacker"
    assert parallel.ready(st) is one
    assert parallel.waiting_for(st) == []


def test_troops_at_a_table_do_not_advance_into_another_battle() -> None:
    st = new_game(load_scenario("caen"), {"mode": "gw"})
    found = False
    for seed in range(80):
        st = new_game(load_scenario("caen"), {"mode": "gw"})
        if run_until(st, lambda s: s.step == "advance" and s.battle is not None and not s.battle.survivors
                     and any(isinstance(a, Advance) for a in s.legal_actions()), seed):
            found = True
            break
    assert found
    b = st.battle
    assert b is not None
    unit = next(a.unit for a in st.legal_actions() if isinstance(a, Advance))
    elsewhere = Battle("normal", b.attacker, b.defender, st.loc[unit], b.to, att=(unit,), no=9, parked=True)
    st.parked = [elsewhere]
    st.params["parallel"] = True
    assert Advance(unit) not in st.legal_actions()
    with pytest.raises(IllegalActionError, match=f"{unit} is committed to battle 9"):
        st.apply_action(Advance(unit))


def test_a_campaign_with_results_out_of_turn_replays_exactly() -> None:
    st = game()
    rng = random.Random(5)
    reported = 0
    for seed in range(3):
        st = game()
        dice = random.Random(seed)
        bots = {s: make_bot("random", random.Random(seed + i)) for i, s in enumerate(st.sc.sides)}
        while not st.is_terminal():
            who = st.current_player()
            waiting = parallel.waiting_for(st)
            if waiting and who != CHANCE and (who == REPORT or rng.random() < 0.5):
                st.apply_action(Report(rng.randint(0, 6), rng.randint(0, 6), rng.choice(waiting)))
                reported += who != REPORT
            elif who == CHANCE:
                st.apply_action(st.chance_dice().sample(dice))
            elif who == REPORT:
                st.apply_action(Report(3, 3))
            else:
                st.apply_action(bots[who].choose(st, st.legal_actions()))
        record = GameRecord.from_json(st.record(seed).to_json())
        sc, params = st.sc, dict(record.params)
        again = replay(record, lambda: new_game(sc, dict(params)))  # noqa: B023 (used at once)
        assert isinstance(again, FirestormState)
        assert again.events == st.events and again.control == st.control and again.loc == st.loc
    assert reported > 0, "some results must have come in while a side was to act"
    bad = GameRecord(st.sc.id, st.sc.version, {"mode": "tabletop", "parallel": True}, 0,
                     [LogEntry("report 1 3 3", REPORT, 1, "planning", False)])
    with pytest.raises(SaveError, match="no battle is at the table"):
        replay(bad, lambda: new_game(st.sc, {"mode": "tabletop", "parallel": True}))


@pytest.mark.parametrize("scenario", ["lorraine", "norway"])
def test_other_campaigns_park_their_battles_too(scenario: str) -> None:
    st = find(lambda s: len(s.parked) >= 2, scenario)
    assert len({a for b in st.parked for a in (b.frm, b.to)}) == 2 * len(st.parked)


def test_the_next_initiative_waits_when_tables_bar_a_sides_attack() -> None:
    from warroom.rulesets.firestorm.arrows import arrow_options
    from warroom.rulesets.firestorm.steps import next_battle, tables_bar_an_attack

    def barred(s: FirestormState) -> bool:
        return bool(s.parked) and s.battles_left > 0 and s.step == "await_reports"

    st = find(barred, seeds=300)
    assert tables_bar_an_attack(st) and next_battle(st) == "await_reports"
    side = next(x for x in st.sc.sides if not arrow_options(st, x))
    assert arrow_options(st, side, locked=frozenset()), "only the tables stand in the way"
    before = st.battles_left
    b = st.parked[0]
    st.apply_action(Report(3, 3, b.no))
    assert st.battles_left == before, "waiting spends no battle of the turn"


def test_the_caumont_gap_waits_until_no_battle_is_at_a_table() -> None:
    from warroom.rulesets.firestorm.dday import caumont_due

    st = game()
    v = st.sc.rules.value("caumont")
    st.turn = v["turn"]
    st.control[v["trigger"]] = st.sc.sides[0]
    assert caumont_due(st)
    allies, axis = st.sc.sides
    st.parked = [Battle("normal", allies, axis, "B2", "B3", no=1, parked=True)]
    assert not caumont_due(st), "7 Armd or the gap may be at a table"
