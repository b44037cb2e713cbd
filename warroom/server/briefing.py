"""A battle's briefing for its two commanders (issue 4): where, who, supply, and a suggested mission.

Everything comes from the scenario and the public view of the open battle; nothing here is a rule.
"""

from __future__ import annotations

from typing import Any

from warroom.rulesets.firestorm import dday
from warroom.rulesets.firestorm.actions import TOKEN_LABELS, is_token
from warroom.rulesets.firestorm.prompts import asking, mode_words
from warroom.rulesets.firestorm.state import FirestormState

MISSIONS = (
    ("fortified", "Fortified Assault: the defender is dug in behind prepared works"),
    ("out_of_supply", "Surrounded: the defender is cut off and fights where it stands"),
    ("river", "Breakthrough: the attacker must force its way across the river line"),
    ("city", "Cauldron: close fighting street by street"),
    ("bocage", "Hold the Line: the defender holds the hedgerows"),
    ("plain", "Free-for-All: both forces manoeuvre in open country"),
)
"""assumption: the rulebooks name no missions for campaign battles (core 7.1); this is a suggestion from
the battle's situation, first match wins, and the players may always agree on another."""


def suggested_mission(st: FirestormState, battle: dict[str, Any]) -> str:
    area = st.sc.areas[battle["to"]]
    situation = {area.terrain}
    if "fortified" in area.flags:
        situation.add("fortified")
    if not battle["defender_supplied"]:
        situation.add("out_of_supply")
    if st.sc.rivers.get(frozenset((battle["from"], battle["to"]))):
        situation.add("river")
    return next((text for key, text in MISSIONS if key in situation), MISSIONS[-1][1])


def troop_lines(st: FirestormState, side: str, units: list[str]) -> list[str]:
    sc = st.sc
    out = []
    for u in units:
        if is_token(u):
            air = sc.air.get(side)
            out.append(air.name if u == "@air" and air else TOKEN_LABELS.get(u, u))
            continue
        t = sc.troops[u]
        parts = [p for p in (t.platoon, t.rating, f"{t.points} pts" if t.points else "") if p]
        out.append(f"{t.name} ({', '.join(parts)})" if parts else t.name)
    return out


def landing_briefing(st: FirestormState) -> dict[str, Any]:
    """Caen's D-Day landing asked for at the table now (Tonga, then each Neptune beach): what it is, and what
    each result does (the Allied score picks the row of the landing's table, Caen ambiguity 7)."""
    rows = []
    for row in range(1, 7):
        scores = {1: "0 or 1 (the Germans 3 or more)", 2: "2 (the Germans 3 or more)",
                  3: "3, or neither side reaches 3"}.get(row, str(row))
        rows.append({"row": row, "allied_vp": scores, "effect": dday.row_effect(st, row)[1]})
    return {"title": dday.landing(st), "landing": rows, "asking": asking(st)}


def briefing(st: FirestormState, view: dict[str, Any], no: int = 0) -> dict[str, Any] | None:
    """The briefing of battle `no` at the table, or (0) of the battle being fought now, or of the D-Day landing
    asked for; None if there is none."""
    if not no and st.step in ("dday_tonga", "dday_neptune"):
        return landing_briefing(st)
    b = view.get("battle") if not no else next((o for o in view.get("open_battles", []) if o["no"] == no), None)
    if not b:
        return None
    sc = st.sc
    to, frm = sc.areas[b["to"]], sc.areas[b["from"]]
    names = sc.side_names
    river = sc.rivers.get(frozenset((frm.id, to.id)))
    oos = ", ".join(f"{face}: {effect}" for face, effect in sc.rules.out_of_supply)
    return {
        "title": f"{names[b['attacker']]} attack {st.area_label(to.id)} from {st.area_label(frm.id)}",
        "area": {"id": to.id, "name": to.name, "terrain": to.terrain, "vp": to.vp, "features": sorted(to.flags)},
        "river": river or "",
        "sides": [
            {"side": names[b["attacker"]], "role": "attacker", "troops": troop_lines(st, b["attacker"],
                                                                                    b["attacker_troops"]),
             "supplied": b["attacker_supplied"]},
            {"side": names[b["defender"]], "role": "defender", "troops": troop_lines(st, b["defender"],
                                                                                    b["defender_troops"]),
             "supplied": b["defender_supplied"]},
        ],
        "out_of_supply": f"General's Wargame {sc.rules.oos_gw:+d}; on the tabletop roll a die (highest face: effect) "
                         f"{oos}",
        "mission": suggested_mission(st, b),
        "mode": b["mode"] if no or mode_words(st, b["mode"]) else "",  # '': a mixed campaign has not chosen yet
        "notes": list(b["notes"]),
    }
