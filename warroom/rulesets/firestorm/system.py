"""The Firestorm campaign system (Caen, Lorraine, Norway) declared to the registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warroom.core.system import Capability, GameSummary, RuleSystem, Variant
from warroom.rulesets.firestorm import check_params, load, new_game
from warroom.rulesets.firestorm.bridge import kernel_of
from warroom.rulesets.firestorm.describe import describe
from warroom.rulesets.firestorm.determinise import determinise
from warroom.rulesets.firestorm.encoding import encoding
from warroom.rulesets.firestorm.model import FirestormScenario, parse_scenario
from warroom.rulesets.firestorm.prompts import asking
from warroom.rulesets.firestorm.secrets import log_for, log_settled
from warroom.rulesets.firestorm.state import FirestormState, lead_of, standing_of
from warroom.rulesets.firestorm.tabletop import TABLETOP

PARAMS = {
    "mode": "how battles are resolved: gw (the General's Wargame, default), tabletop or mixed",
    "allotment": "mixed mode: tabletop battles each side may claim per turn (default: no limit)",
    "parallel": "tabletop battles go to the table while the turn goes on (true or false)",
    "revision": "the revision of the rules the game is played under (model.REVISION; default the newest)",
}
BOT_STREAMS = (0x5DEECE66D, 0x2545F4914F6CDD1D)
"""Mixed into a game's seed for the first and the second side's bot."""


def replay_params(sc: FirestormScenario, version: str, params: Mapping[str, Any]) -> dict[str, Any] | None:
    """A save of this scenario's version replays as it is; one of an older version that the scenario lists under
    `replays` replays under the rules' revision it was played with (`model.REVISION`). A save that names no
    revision was made before there were revisions (an uploaded scenario keeps its version): revision 1."""
    if version == sc.version:
        same = dict(params)  # in its own order, so that a save written again is the same bytes
        same.setdefault("revision", 1)
        return same
    old = sc.replays.get(version)
    return None if old is None else {**params, **old}


def bot_seeds(seed: int, sides: tuple[str, ...]) -> dict[str, int]:
    return {side: seed ^ mix for side, mix in zip(sides, BOT_STREAMS, strict=True)}


def bot_game_problem(params: Mapping[str, Any]) -> str:
    mode = params.get("mode", "gw")
    return "" if mode == "gw" else f"bot games resolve battles by the General's Wargame, not mode {mode!r}"


def summarise(st: FirestormState) -> GameSummary:
    winner, _level, _margin = st.outcome()
    a, b = st.sc.sides
    return GameSummary(st.outcome_label(), winner, st.total_vp(a) - st.total_vp(b), dict(st.control))


def value(st: FirestormState) -> dict[str, float]:
    """Each side's standing for a searching bot (`state.standing_of`). Mid-game it reads the VP as they stand now,
    which counts the areas held: the search's evaluation at a horizon."""
    a, b = st.sc.sides
    return standing_of(st.sc, st.total_vp(a) - st.total_vp(b))


def levels(sc: FirestormScenario) -> tuple[str, ...]:
    """Every outcome label (`outcome_label_of`) from the first side's greatest victory to the second side's."""
    a, b = sc.sides
    ranked = [level for _, level in sorted(sc.rules.thresholds, key=lambda t: -t[0])]

    def adjective(side: str) -> str:
        return sc.side_adjectives.get(side, sc.side_names[side])

    return (*(f"{adjective(a)} {lv}" for lv in ranked), "Draw", *(f"{adjective(b)} {lv}" for lv in reversed(ranked)))


def lead(st: FirestormState) -> float:
    a, b = st.sc.sides
    return lead_of(st.sc, st.total_vp(a) - st.total_vp(b))


def facts(sc: FirestormScenario) -> str:
    return f"{len(sc.areas)} areas, {len(sc.borders)} borders, {len(sc.troops)} troops, {len(sc.turns)} turns"


SYSTEM = RuleSystem(
    id="firestorm",
    name="the Firestorm campaign system",
    scenario_type=FirestormScenario,
    state_type=FirestormState,
    load=load,
    parse=parse_scenario,
    new_game=new_game,
    replay_params=replay_params,
    check_params=check_params,
    params=PARAMS,
    sim_params={"mode": "gw"},
    seats=lambda sc, params: {s: s for s in sc.sides},
    bot_seeds=bot_seeds,
    bot_game_problem=bot_game_problem,
    heuristic="warroom.ai.firestorm_heuristic:choose",
    summarise=summarise,
    score_sides=lambda sc: (sc.sides[0], sc.sides[1]),
    score_label="",
    log_for=log_for,
    log_settled=log_settled,
    describe=describe,
    asking=asking,
    title=lambda sc, params: str(sc.title),
    assumptions=lambda sc: len(sc.assumptions),
    facts=facts,
    tabletop=TABLETOP,
    determinise=determinise,
    listing=lambda sc: (sc.title, str(len(sc.turns)), " vs ".join(sc.side_names[s] for s in sc.sides),
                        str(len(sc.areas)), str(len(sc.troops))),
    about="",
    variants=(Variant("General's Wargame", {"mode": "gw"}), Variant("tabletop", {"mode": "tabletop"}),
              Variant("mixed, 1 battle a side at the table", {"mode": "mixed", "allotment": 1}),
              Variant("tabletop, battles in parallel", {"mode": "tabletop", "parallel": True})),
    max_actions=20_000,
    capabilities=frozenset({Capability.TABLETOP, Capability.PARKED, Capability.CLUB}),
    value=value,
    lead=lead,
    levels=levels,
    encoding=encoding,
    kernel=kernel_of,
    fast_game="warroom.ai.firestorm_kernel_bot:game",
    kernel_finish="warroom.ai.firestorm_kernel_bot:finish",
    kernel_heuristic="warroom.ai.firestorm_kernel_bot:choose",
)
