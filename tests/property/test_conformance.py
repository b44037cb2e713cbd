"""Every registered rule system, every bundled scenario and variant, through one conformance harness
(`warroom.sim.conformance`, after OpenSpiel's `random_sim_test`): contracts, exact replay, clone independence,
exactly the legal actions applying, no secrets on twin positions, no dead ends and termination.

`make fuzz GAMES=N` runs the same harness at scale (scripts/fuzz.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest
from depth import deep

from warroom import rulesets
from warroom.core.state import CHANCE
from warroom.core.system import Capability, Encoding, RuleSystem, Variant
from warroom.rulesets.firestorm.state import FirestormState
from warroom.rulesets.kampen.state import KampenState
from warroom.sim.conformance import Broken, cases, play_checked, run

GAMES = {"firestorm": deep(4), "kampen": deep(6), "narvik": deep(1)}
"""Games per scenario and variant: 48 Firestorm games (3 scenarios, 4 variants), 24 of Kampen om Norge (whose
games are the longest but Narvik's), which test_kampen_play.py plays 320 more of, and 2 of Narvik, whose games run
to some 3,000 actions with a costly check at every seventh (half a minute each, pure Python). This is a search for
faults, not a measurement: every case is played and every check runs in each game, and the counts are sized to the
suite's time (Norway's long games, then Kampen om Norge's, cost most of it). A deeper run multiplies them
(`WARROOM_TEST_DEPTH`), and `make fuzz` plays thousands of each."""
CASES = list(cases())


@pytest.mark.parametrize(("system", "scenario", "variant"), CASES,
                         ids=[f"{s.id}-{sc}-{v.name}" for s, sc, v in CASES])
def test_random_play_keeps_every_promise_of_the_state_api(system: RuleSystem, scenario: str, variant: Variant
                                                          ) -> None:
    tally = run(system, scenario, variant, range(GAMES[system.id]))
    assert tally.games == GAMES[system.id] and tally.actions > 0
    assert not tally.problems, "\n".join(map(str, tally.problems[:10]))


def test_every_registered_system_is_played_with_all_its_variants() -> None:
    played = {(s.id, v.name) for s, _sc, v in CASES}
    assert {s.id for s in rulesets.systems().values()} == {"firestorm", "kampen", "narvik"}
    for system in rulesets.systems().values():
        assert {(system.id, v.name) for v in system.variants} <= played
        assert system.variants and system.max_actions > 0
        assert (system.tabletop is not None) == system.can(Capability.TABLETOP)


# ----- the harness finds what it looks for -----------------------------------------------------------------
def test_an_action_the_encoding_does_not_list_is_caught() -> None:
    firestorm = rulesets.get("firestorm")
    real = firestorm.encoding
    assert real is not None

    def without_pass(sc: Any, params: Mapping[str, Any]) -> Encoding:
        full = real(sc, params)
        return replace(full, actions=tuple(a for a in full.actions if a != "pass"))

    short = replace(firestorm, encoding=without_pass)
    with pytest.raises(Broken, match="'pass' is not among the actions the system's encoding lists"):
        play_checked(short, "caen", short.variants[0], 1)


def test_a_view_that_shows_another_hand_is_caught_as_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    real = KampenState.view

    def leaky(self: KampenState, side: str | None) -> dict[str, object]:
        return {**real(self, side), "all_hands": {c: list(h) for c, h in self.hands.items()}}

    monkeypatch.setattr(KampenState, "view", leaky)
    kampen = rulesets.get("kampen")
    with pytest.raises(Broken, match="view differs on a twin"):
        play_checked(kampen, "kampen", kampen.variants[0], 1)


def test_a_clone_that_shares_the_troops_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = KampenState.clone

    def shallow(self: KampenState, history: bool = True) -> KampenState:
        copy = real(self, history)
        copy.troops = self.troops
        return copy

    monkeypatch.setattr(KampenState, "clone", shallow)
    kampen = rulesets.get("kampen")
    with pytest.raises(Broken, match="clone changed the original"):
        play_checked(kampen, "kampen", kampen.variants[0], 1)


def test_an_action_accepted_beyond_the_legal_list_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = KampenState.apply_action

    def lax(self: KampenState, action: Any, side: str | None = None) -> None:
        if self.current_player() != CHANCE and action.to_str() not in {a.to_str() for a in self.legal_actions()}:
            return  # the bug: an action of another moment is taken without a word
        real(self, action, side)

    monkeypatch.setattr(KampenState, "apply_action", lax)
    kampen = rulesets.get("kampen")
    with pytest.raises(Broken, match="accepted but is not among the legal actions"):
        play_checked(kampen, "kampen", kampen.variants[0], 1)


def test_a_crash_becomes_a_problem_with_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: KampenState) -> list[object]:
        raise RuntimeError("broken on purpose")

    monkeypatch.setattr(KampenState, "legal_actions", boom)
    kampen = rulesets.get("kampen")
    tally = run(kampen, "kampen", kampen.variants[0], [4])
    assert [(p.kind, p.seed) for p in tally.problems] == [("crash", 4)]
    assert "broken on purpose" in tally.problems[0].detail and "kampen/kampen" in str(tally.problems[0])


def test_a_clone_that_shares_the_score_is_caught_across_a_roll(monkeypatch: pytest.MonkeyPatch) -> None:
    real = FirestormState.clone

    def sharing(self: FirestormState) -> FirestormState:
        copy = real(self)
        copy.unit_vp = self.unit_vp  # the bug: captures on the copy score for the original
        return copy

    monkeypatch.setattr(FirestormState, "clone", sharing)
    firestorm = rulesets.get("firestorm")
    tally = run(firestorm, "caen", firestorm.variants[0], range(16))
    assert tally.problems and {p.kind for p in tally.problems} == {"clone"}, tally.problems[:3]


def test_a_clone_that_forgets_the_score_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = FirestormState.clone

    def forgetful(self: FirestormState) -> FirestormState:
        copy = real(self)
        copy.unit_vp = dict.fromkeys(self.unit_vp, 0)
        return copy

    monkeypatch.setattr(FirestormState, "clone", forgetful)
    firestorm = rulesets.get("firestorm")
    tally = run(firestorm, "caen", firestorm.variants[0], range(16))
    assert any(p.kind == "clone" and "fresh clone differs" in p.detail for p in tally.problems), tally.problems[:3]


def test_a_spectator_view_that_shows_the_hands_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = KampenState.view

    def leaky(self: KampenState, side: str | None) -> dict[str, object]:
        shown = real(self, side)
        return {**shown, "hands": {c: list(h) for c, h in self.hands.items()}} if side is None else shown

    monkeypatch.setattr(KampenState, "view", leaky)
    kampen = rulesets.get("kampen")
    with pytest.raises(Broken, match="spectator's view differs on a twin"):
        play_checked(kampen, "kampen", kampen.variants[0], 1)
