"""Kampen om Norge declared to the registry: what the adapters need besides the state API."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warroom.core.system import Capability, GameSummary, RuleSystem, Variant, stream_seeds
from warroom.rulesets.kampen import RULE_PARAMS, check_params, load, new_game
from warroom.rulesets.kampen.describe import describe
from warroom.rulesets.kampen.determinise import determinise, seat_determinise
from warroom.rulesets.kampen.encoding import encoding
from warroom.rulesets.kampen.prompts import asking
from warroom.rulesets.kampen.scenario import KampenScenario, assumptions, game_title
from warroom.rulesets.kampen.secrets import log_for, log_settled, seat_of
from warroom.rulesets.kampen.state import ALLIES, GERMANY, LEVELS, NORWAY, KampenState
from warroom.rulesets.kampen.victory import standing, value
from warroom.rulesets.kampen.view import seat_view

BOT_STREAM = 0x9E3779B97F4A7C15
"""Mixed into a game's seed for the stream that seeds each country's bot."""


def seats(sc: KampenScenario, params: Mapping[str, Any]) -> dict[str, str]:
    """With two players one person holds Norway and the Allies (1.2): Norway's player decides for both."""
    return {c: seat_of(params, c) for c in (GERMANY, NORWAY, ALLIES)}


def summarise(st: KampenState) -> GameSummary:
    """The "difference" is how many point cities Germany holds at the end."""
    cities = st.sc.board.point_cities
    held = {a: st.holder(a) or "empty" for a in sorted(st.sc.board.land)}
    return GameSummary(st.outcome_label(), st.result[0], sum(1 for c in cities if held[c] == GERMANY), held)


def lead(st: KampenState) -> float:
    """Germany's lead in outcome levels: 2 for a clear victory were the game to end now, 1 a narrow one, -1 and
    -2 for Norway's and the Allies' (1.3)."""
    winner, level = st.result if st.terminal else standing(st)
    size = 0.0 if not winner else 2.0 if level == "clear" else 1.0
    return size if winner == GERMANY else -size


def facts(sc: KampenScenario) -> str:
    return (f"{len(sc.board.land)} land areas, {len(sc.board.seas)} sea areas, {len(sc.board.borders)} borders, "
            f"{sum(len(d) for d in sc.decks.values())} play cards")


SYSTEM = RuleSystem(
    id="kampen",
    name="Kampen om Norge",
    scenario_type=KampenScenario,
    state_type=KampenState,
    load=load,
    parse=None,
    new_game=new_game,
    replay_params=lambda sc, version, params: dict(params) if version == sc.version else None,
    check_params=check_params,
    params=RULE_PARAMS,
    sim_params={},
    seats=seats,
    bot_seeds=stream_seeds(BOT_STREAM),
    bot_game_problem=lambda params: "",
    heuristic="warroom.ai.kampen_heuristic:choose",
    summarise=summarise,
    score_sides=lambda sc: (GERMANY, "norway_allies"),
    score_label="point cities German at the end",
    levels=lambda sc: LEVELS,
    log_for=log_for,
    log_settled=log_settled,
    describe=describe,
    asking=asking,
    title=lambda sc, params: game_title(sc, bool(params.get("advanced"))),
    assumptions=assumptions,
    facts=facts,
    tabletop=None,
    determinise=determinise,
    listing=lambda sc: ("Kampen om Norge", "deck", "Germany vs Norway, Allies", str(len(sc.board.land)),
                        str(sum(sum(p.values()) for p in sc.setup.values()))),
    about="Kampen om Norge plays rounds until the German deck runs out; its troops are battalions.",
    variants=(Variant("basic, 2 players"), Variant("basic, 3 players", {"seats": 3}),
              Variant("advanced, 2 players", {"advanced": True}),
              Variant("advanced, 3 players", {"advanced": True, "seats": 3})),
    max_actions=20_000,
    capabilities=frozenset({Capability.HIDDEN, Capability.CLUB}),
    seat_view=seat_view,
    value=value,
    lead=lead,
    seat_determinise=seat_determinise,
    encoding=encoding,
)
