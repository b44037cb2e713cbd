"""The Firestorm campaigns on the club server: the campaign page's maps, VP chart and area details."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.rulesets.firestorm.actions import PASS, TOKEN_LABELS, Order
from warroom.rulesets.firestorm.naval_combat import target_name
from warroom.rulesets.firestorm.prompts import mode_words
from warroom.server.svg import fleet_id, map_svgs, vp_chart_svg, vp_history
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


def naval_fight(st: FirestormState, view: dict[str, Any], legal: list[Any]) -> dict[str, Any] | None:
    """A fight on the Strategic Map as the viewer may see it: each volley's side, what fires and how many dice (its
    allocation once rolled, or the viewer's own), and, for the side deciding, one field per enemy unit to share its
    dice out (the allocations the rules allow: `allocate TARGET N`)."""
    combat = (view.get("strategic") or {}).get("combat")
    if not combat:
        return None
    sc = st.sc
    volleys = [{"side": sc.side_names.get(v["side"], v["side"]), "label": v["label"], "dice": v["dice"],
                "alloc": None if v["hidden"] else [(target_name(st, t), n) for t, n in v["alloc"].items()],
                "faces": v.get("faces")} for v in combat["volleys"]]
    most: dict[str, int] = {}
    for a in legal:
        if isinstance(a, Order) and a.verb == "allocate":
            most[a.arg] = max(most.get(a.arg, 0), a.n)
    form = None
    if most:
        left = max(most.values())
        deciding = next((v for v in combat["volleys"] if not v["hidden"] and v.get("left")), None)
        targets = []
        for t, n in most.items():
            c = sc.counters.get(t)
            kind = f"{c.type}, {c.cv} CV" if c is not None else "the harbour"
            targets.append({"id": t, "name": target_name(st, t), "kind": kind, "max": n})
        form = {"left": left, "label": deciding["label"] if deciding else "", "targets": targets,
                "may_hold": PASS in legal}
    return {"at": sc.strat_areas[combat["at"]].name, "volleys": volleys, "rolled": combat["rolled"], "form": form}


def page(campaigns: Campaigns, who: Grant, shown: dict[str, Any], handed: str) -> tuple[str, dict[str, Any]]:
    """The template and context of a Firestorm campaign's page (`handed` is unused: every side's view of a
    Firestorm campaign shows the same, but for allocations the log hides)."""
    view, row, st = shown["view"], shown["row"], shown["state"]
    sc = st.sc
    maps, chart = campaigns.drawing(row, who.side or None, draw)
    legal = campaigns.legal_for(st, who)
    naval = naval_fight(st, view, legal)
    troop_names = {t.id: t.name for t in sc.troops.values()}
    details: dict[str, Any] = {a["id"]: {**a, "controller": sc.side_names.get(a["controller"], a["controller"]),
                         "troops": [troop_names.get(u, u) for u in a["troops"]]} for a in view["areas"]}
    strat = view.get("strategic")
    if strat:  # each fleet token lists its counters when clicked
        places = {loc["id"]: loc["name"] for loc in strat["locations"]}
        for c in strat["counters"]:
            key = fleet_id(c["location"], c["side"])
            entry = details.setdefault(key, {"title": f"{sc.side_names[c['side']]} at {places[c['location']]}",
                                             "rows": []})
            entry["rows"].append([c["name"], f"{c['type']}" + (f", {c['cv']} CV" if c.get("cv") else "")
                                  + (", activated" if c["activated"] else "")])
        if st.step.startswith(("sa_", "nv_")) or st.step == "fleet_moves":  # the Strategic Game: its map first
            maps = sorted(maps, key=lambda drawn: sc.maps[drawn[0]]["kind"] != "strategic")
    return "campaign.html", {
        "view": view, "legal": view["legal"], "names": sc.side_names, "maps": maps,
        "map_names": {m: info["name"] for m, info in sc.maps.items()}, "chart": chart,
        "details": details, "results": view["results"], "troop_names": troop_names,
        "choices": choices(st, [a for a in legal if not (naval and naval["form"] and isinstance(a, Order)
                                                         and a.verb == "allocate")]),
        "asking": asking(st), "naval": naval,
        "to_act": actor_words(st, st.current_player()),
        "battle": battle_words(st, view["battle"]),
        "open_battles": [battle_words(st, b) for b in view["open_battles"]],
    }
