"""Narvik declared to the registry: what the adapters need besides the state API."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warroom.core.log import LogEntry
from warroom.core.system import Capability, GameSummary, RuleSystem, Variant, stream_seeds
from warroom.rulesets.narvik import RULE_PARAMS, check_params, load, new_game
from warroom.rulesets.narvik.describe import asking, describe
from warroom.rulesets.narvik.movement import owned_by
from warroom.rulesets.narvik.scenario import ALLIED, GERMAN, NarvikScenario
from warroom.rulesets.narvik.state import NarvikState
from warroom.rulesets.narvik.victory import german_ports, level

BOT_STREAM = 0x5DEECE66D
"""Mixed into a game's seed for the stream that seeds each side's bot."""


def summarise(st: NarvikState) -> GameSummary:
    """The "difference" is how many of the seven ports the Germans hold at the end."""
    ports = german_ports(st)
    m = st.sc.map
    held = {p: owned_by(st, m.place_hex(p)) for p in st.sc.victory_ports}
    returns = st.returns()
    winner = "" if returns[GERMAN] == 0 else (GERMAN if returns[GERMAN] > 0 else ALLIED)
    return GameSummary(st.result, winner, len(ports), held)


def lead(st: NarvikState) -> float:
    """The Germans' lead in outcome levels: the level the game would end at now, counted from the draw (2: a
    German decisive victory, -2 an Allied one)."""
    labels = [label for _, label in st.sc.levels]
    return (len(labels) - 1) / 2 - labels.index(st.result if st.terminal else level(st))


def value(st: NarvikState) -> dict[str, float]:
    """Each side's standing from 0 to 1: the share of victory ports it holds, nudged by victory points."""
    share = len(german_ports(st)) / len(st.sc.victory_ports)
    lead = (st.vp[GERMAN] - st.vp[ALLIED]) / (4 * st.sc.vp_shift)
    german = max(0.0, min(1.0, share + lead))
    return {GERMAN: german, ALLIED: 1.0 - german}


def log_for(st: NarvikState, side: str | None, since: int) -> list[LogEntry]:
    """Everything is open in Narvik: every side reads the whole log."""
    return list(st.log[since:])


def log_settled(st: NarvikState) -> int:
    """`RuleSystem.log_settled`: every entry (every side reads the whole log)."""
    return len(st.log)


def facts(sc: NarvikScenario) -> str:
    land = sum(1 for t in sc.map.terrain.values() if t in ("clear", "forest", "rough", "mountain", "glacier"))
    return (f"{land} land hexes of {sc.map.columns} x {sc.map.rows}, {len(sc.map.places)} places, "
            f"{len(sc.units)} units, {sc.turns} turns")


def seats(sc: NarvikScenario, params: Mapping[str, Any]) -> dict[str, str]:
    return {GERMAN: GERMAN, ALLIED: ALLIED}


SYSTEM = RuleSystem(
    id="narvik",
    name="Narvik (Europa series)",
    scenario_type=NarvikScenario,
    state_type=NarvikState,
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
    heuristic="warroom.ai.narvik_heuristic:choose",
    summarise=summarise,
    score_sides=lambda sc: (GERMAN, ALLIED),
    score_label="victory ports German at the end",
    levels=lambda sc: tuple(label for _, label in sc.levels),
    log_for=log_for,
    log_settled=log_settled,
    describe=describe,
    asking=asking,
    title=lambda sc, params: sc.title,
    assumptions=lambda sc: sc.assumption_count,
    facts=facts,
    tabletop=None,
    determinise=None,
    listing=lambda sc: (sc.title, f"{sc.turns} turns", "Germans vs Allies", str(len(sc.map.terrain)),
                        str(len(sc.units))),
    about="Narvik is decided by the seven ports held at the end; its troops are battalions.",
    variants=(Variant("broken down"), Variant("whole regiments", {"broken_down": False})),
    max_actions=30_000,
    capabilities=frozenset({Capability.CLUB}),
    value=value,
    lead=lead,
)
