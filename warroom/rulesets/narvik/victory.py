"""Victory (seed: Victory Determination): the seven ports held at the end decide the game, and destroyed key
units score victory points; how the two combine is scenario.toml's [victory] stand-in."""

from __future__ import annotations

from warroom.rulesets.narvik.movement import owned_by
from warroom.rulesets.narvik.scenario import ALLIED, GERMAN
from warroom.rulesets.narvik.state import NarvikState


def german_ports(st: NarvikState) -> list[str]:
    """The victory ports the Germans own now."""
    m = st.sc.map
    return [p for p in st.sc.victory_ports if owned_by(st, m.place_hex(p)) == GERMAN]


def level(st: NarvikState) -> str:
    """The outcome if the game ended now: the ports give the level, and a lead of `vp_shift` victory points
    moves it one level towards the side that leads."""
    held = len(german_ports(st))
    labels = [label for _, label in st.sc.levels]
    index = next(i for i, (least, _) in enumerate(st.sc.levels) if held >= least)
    lead = st.vp[GERMAN] - st.vp[ALLIED]
    if lead >= st.sc.vp_shift:
        index = max(0, index - 1)
    elif -lead >= st.sc.vp_shift:
        index = min(len(labels) - 1, index + 1)
    return labels[index]


def finish(st: NarvikState) -> None:
    st.result = level(st)
    st.terminal = True
    held = german_ports(st)
    st.note(f"the game ends: the Germans hold {len(held)} of the {len(st.sc.victory_ports)} ports "
            f"({', '.join(held) or 'none'}); victory points {st.vp[GERMAN]} German, {st.vp[ALLIED]} Allied: "
            f"{st.result}")
