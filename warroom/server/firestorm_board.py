"""The Firestorm campaigns on the club server: the campaign page's maps, VP chart and area details."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.server.svg import map_svgs, vp_chart_svg, vp_history

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.state import FirestormState
    from warroom.server.service import Campaigns
    from warroom.server.store import Grant


def draw(st: FirestormState, side: str | None) -> tuple[list[tuple[str, str]], str]:
    """Every map as the side sees it, and the VP chart."""
    return map_svgs(st, side), vp_chart_svg(vp_history(st), st.sc.side_names)


def page(campaigns: Campaigns, who: Grant, shown: dict[str, Any], handed: str) -> tuple[str, dict[str, Any]]:
    """The template and context of a Firestorm campaign's page (`handed` is unused: every side's view of a
    Firestorm campaign shows the same, but for allocations the log hides)."""
    view, row, st = shown["view"], shown["row"], shown["state"]
    sc = st.sc
    maps, chart = campaigns.drawing(row, who.side or None, draw)
    return "campaign.html", {
        "view": view, "legal": view["legal"], "names": sc.side_names, "maps": maps,
        "map_names": {m: info["name"] for m, info in sc.maps.items()}, "chart": chart,
        "details": {a["id"]: a for a in view["areas"]}, "results": view["results"],
        "troop_names": {t.id: t.name for t in sc.troops.values()},
    }
