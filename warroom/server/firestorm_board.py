"""The Firestorm campaigns on the club server: the campaign page's maps, VP chart and area details."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.rulesets.firestorm.actions import TOKEN_LABELS
from warroom.rulesets.firestorm.prompts import mode_words
from warroom.server.svg import map_svgs, vp_chart_svg, vp_history
from warroom.server.words import actor_words, asking, choices

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState
    from warroom.server.service import Campaigns
    from warroom.server.store import Grant


def draw(st: FirestormState, side: str | None) -> tuple[list[tuple[str, str]], str]:
    """Every map as the side sees it, and the VP chart."""
    return map_svgs(st, side), vp_chart_svg(vp_history(st), st.sc.side_names)


def battle_words(st: FirestormState, b: dict[str, Any] | None) -> dict[str, Any] | None:
    """A battle of the view in words: who attacks what from where, the troops by name, how it is fought."""
    if b is None:
        return None
    sc = st.sc
    names = {t.id: t.name for t in sc.troops.values()}
    troops = {role: [TOKEN_LABELS.get(u, names.get(u, u)) for u in b[f"{role}_troops"]]
              for role in ("attacker", "defender")}
    line = f"the {sc.side_names[b['attacker']]} attack {st.area_label(b['to'])} from {st.area_label(b['from'])}"
    return {**b, "line": line[0].upper() + line[1:], "attacker_names": troops["attacker"],
            "defender_names": troops["defender"], "mode_words": mode_words(st, b["mode"]),
            "attacker_side": sc.side_names[b["attacker"]], "defender_side": sc.side_names[b["defender"]]}


def page(campaigns: Campaigns, who: Grant, shown: dict[str, Any], handed: str) -> tuple[str, dict[str, Any]]:
    """The template and context of a Firestorm campaign's page (`handed` is unused: every side's view of a
    Firestorm campaign shows the same, but for allocations the log hides)."""
    view, row, st = shown["view"], shown["row"], shown["state"]
    sc = st.sc
    maps, chart = campaigns.drawing(row, who.side or None, draw)
    troop_names = {t.id: t.name for t in sc.troops.values()}
    details = {a["id"]: {**a, "controller": sc.side_names.get(a["controller"], a["controller"]),
                         "troops": [troop_names.get(u, u) for u in a["troops"]]} for a in view["areas"]}
    return "campaign.html", {
        "view": view, "legal": view["legal"], "names": sc.side_names, "maps": maps,
        "map_names": {m: info["name"] for m, info in sc.maps.items()}, "chart": chart,
        "details": details, "results": view["results"], "troop_names": troop_names,
        "choices": choices(st, campaigns.legal_for(st, who)), "asking": asking(st),
        "to_act": actor_words(st, st.current_player()),
        "battle": battle_words(st, view["battle"]),
        "open_battles": [battle_words(st, b) for b in view["open_battles"]],
    }
