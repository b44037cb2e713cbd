"""Narvik on the club server: the hex map as SVG, the units by hex, the battle being fought, and the page's context.

Narvik hides nothing but the dice to come, so every link sees the same map. What every position draws alike
(terrain, sea, Sweden, railways, fjords, places) is drawn once per scenario; what changes (units, owners, the
battle) is drawn once per position (`Campaigns.drawing`). No rule is recomputed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shapely.geometry import Polygon
from shapely.ops import unary_union

from warroom.rulesets.narvik.actions import Land, Move, Rail, Truck
from warroom.rulesets.narvik.describe import unit_words
from warroom.rulesets.narvik.hexes import centre
from warroom.server.portable import seat_label
from warroom.server.svg import document, fmt, legend, side_class, tag, text, title
from warroom.server.territory import Box, Layout, around, path_of, remembered
from warroom.server.words import asking, choices

if TYPE_CHECKING:
    from warroom.rulesets.narvik.scenario import NarvikScenario
    from warroom.rulesets.narvik.state import NarvikState
    from warroom.server.service import Campaigns
    from warroom.server.store import Grant

R = 10.0
"""A hex's radius on the drawing, in pixels (flat-topped: its width is 2R)."""
PAD = 6.0
CSS = """
.narvik .sea{fill:#cfe3f3}
.narvik .t-clear{fill:#eee6c8}.narvik .t-forest{fill:#bcd3a1}.narvik .t-rough{fill:#dcc9a2}
.narvik .t-mountain{fill:#b7a58d}.narvik .t-glacier{fill:#f4f8fb}.narvik .t-lake{fill:#a9cbe8}
.narvik .t-neutral{fill:#d8d8d8}
.narvik .grid{fill:none;stroke:#fff;stroke-opacity:.45;stroke-width:.5}
.narvik .rail{fill:none;stroke:#444;stroke-width:1.6;stroke-dasharray:4 2}
.narvik .fjord{stroke:#3d7bb0;stroke-width:2.5}
.narvik .ridge{stroke:#6b4423;stroke-width:2.5;stroke-linecap:round}
.narvik .place{fill:#333}
.narvik .port .ring{fill:none;stroke:#d4a017;stroke-width:2.5}
.narvik .port.held .ring{stroke:var(--side)}
.narvik .name{font-size:9px;paint-order:stroke;stroke:#fff;stroke-width:2.5px}
.narvik .leader{stroke:#333;stroke-width:.6}
.narvik .stack rect{fill:var(--side);stroke:#111;stroke-width:.7}
.narvik .stack text{fill:#fff;font-size:8px;font-weight:700}
.narvik .contested{fill:none;stroke:#c0392b;stroke-width:2}
.narvik .battle{fill:none;stroke:#c0392b;stroke-width:3.5}
.narvik text{pointer-events:none}
"""
COLOURS = {"german": "#5b5b5b", "allied": "#1f4e9c"}
LABELLED = ("port", "city", "airfield")
"""Places named on the map (the others have a dot and a tooltip)."""


def corners(hid: str) -> list[tuple[float, float]]:
    x, y = centre(hid, R)
    h = R * 3 ** 0.5 / 2
    return [(x + PAD + R + dx, y + PAD + h + dy) for dx, dy in
            ((-R, 0), (-R / 2, -h), (R / 2, -h), (R, 0), (R / 2, h), (-R / 2, h))]


def at(hid: str) -> tuple[float, float]:
    """A hex's centre on the drawing."""
    x, y = centre(hid, R)
    return x + PAD + R, y + PAD + R * 3 ** 0.5 / 2


def size(sc: NarvikScenario) -> tuple[int, int]:
    return int(1.5 * R * sc.map.columns + R / 2 + 2 * PAD + R), int(R * 3 ** 0.5 * (sc.map.rows + 0.5) + 2 * PAD)


def static_layer(sc: NarvikScenario) -> str:
    """What every position draws alike: terrain by kind (one shape each), railways, fjords and places."""
    def build() -> str:
        m = sc.map
        width, height = size(sc)
        parts = [f"<style>{CSS}{''.join(f'.narvik .{side_class(s)}{{--side:{c}}}' for s, c in COLOURS.items())}"
                 "</style>", tag("rect", {"class": "sea", "x": 0, "y": 0, "width": width, "height": height})]
        kinds: dict[str, list[Polygon]] = {}
        for hid, terrain in m.terrain.items():
            if terrain != "sea":
                kinds.setdefault(terrain, []).append(Polygon(corners(hid)))
        for terrain in ("neutral", "clear", "forest", "rough", "mountain", "glacier", "lake"):
            if terrain in kinds:
                parts.append(tag("path", {"class": f"t-{terrain}", "d": path_of(unary_union(kinds[terrain]))}))
        grid = "".join("M" + "L".join(f"{fmt(x)} {fmt(y)}" for x, y in corners(h)) + "Z"
                       for h, t in m.terrain.items() if m.is_land(h))
        parts.append(tag("path", {"class": "grid", "d": grid}))
        for name, hexes in m.rails.items():
            pts = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in (at(h) for h in hexes))
            parts.append(tag("polyline", {"class": "rail", "points": pts}, title(f"railway: {name}")))
        parts += edges(m.mountain_sides, "ridge") + edges(m.fjord_sides, "fjord")
        for p in m.places.values():
            x, y = at(p.hex)
            tip = f"{p.name} ({p.hex}): {', '.join(k.replace('_', ' ') for k in p.kinds)}"
            parts.append(tag("circle", {"class": "place", "cx": fmt(x), "cy": fmt(y), "r": 1.8}, title(tip)))
        return "".join(parts)
    return remembered(sc, "narvik-static", build)


def edges(sides: frozenset[tuple[str, str]], cls: str) -> list[str]:
    """Hexsides drawn as lines along the edge the two hexes share (fjords, mountain ridges)."""
    out = []
    for a, b in sorted(sides):
        shared = [p for p in corners(a) if any(abs(p[0] - q[0]) < .01 and abs(p[1] - q[1]) < .01
                                               for q in corners(b))]
        if len(shared) == 2:
            (x1, y1), (x2, y2) = shared
            out.append(tag("line", {"class": cls, "x1": fmt(x1), "y1": fmt(y1), "x2": fmt(x2), "y2": fmt(y2)}))
    return out


TOKEN = 9.0
NAME_H = 11.0


def name_width(name: str) -> float:
    return 4 + 5.3 * len(name)


def stacks_of(view: Mapping[str, Any]) -> dict[str, dict[str, list[Mapping[str, Any]]]]:
    """Hex -> side -> the units there, as the view lists them."""
    stacks: dict[str, dict[str, list[Mapping[str, Any]]]] = {}
    for u in view["units"]:
        stacks.setdefault(u["hex"], {}).setdefault(u["side"], []).append(u)
    return stacks


def token_boxes(view: Mapping[str, Any]) -> dict[tuple[str, str], Box]:
    """(hex, side) -> the box of that side's token there: one in the hex's middle, or two side by side."""
    out: dict[tuple[str, str], Box] = {}
    for hid, sides in stacks_of(view).items():
        x, y = at(hid)
        for i, side in enumerate(sorted(sides)):
            dx = (-4.5 if i == 0 else 4.5) if len(sides) == 2 else 0.0
            out[(hid, side)] = (x + dx - TOKEN / 2, y - TOKEN / 2, TOKEN, TOKEN)
    return out


def label_boxes(sc: NarvikScenario, tokens: Mapping[tuple[str, str], Box], width: float, height: float
                ) -> dict[str, Box]:
    """Place name -> where its label goes: round its hex, clear of every token, ring and other label (the
    victory ports first, then the other ports, cities and airfields)."""
    layout = Layout(width, height)
    for box in tokens.values():
        layout.block(box)
    m = sc.map
    for name in sc.victory_ports:
        x, y = at(m.place_hex(name))
        layout.block((x - R + 2, y - R + 2, 2 * R - 4, 2 * R - 4))
    named = [p for p in m.places.values() if set(p.kinds) & set(LABELLED) and p.name == m.at[p.hex][0]]
    named.sort(key=lambda p: (p.name not in sc.victory_ports, p.name))
    out: dict[str, Box] = {}
    for p in named:
        x, y = at(p.hex)
        w = name_width(p.name)
        spot = layout.place(w, NAME_H, around(x, y, w, NAME_H, R - 3, rings=10, step=6))
        nx, ny = spot if spot is not None else layout.force(w, NAME_H, x, y - R)
        out[p.name] = (nx, ny, w, NAME_H)
    return out


def board_svg(st: NarvikState, view: Mapping[str, Any]) -> str:
    """The map as the view shows it: victory ports ringed in their owner's colour, each stack of units as a
    token with its side and count, shared hexes ringed, the battle being fought marked."""
    sc = st.sc
    width, height = size(sc)
    body = [static_layer(sc)]
    owners: Mapping[str, str] = view["owners"]
    for name in sc.victory_ports:
        hid = sc.map.place_hex(name)
        x, y = at(hid)
        owner = owners.get(hid, "allied")
        body.append(tag("g", {"class": f"port held {side_class(owner)}"},
                        tag("circle", {"class": "ring", "cx": fmt(x), "cy": fmt(y), "r": R - 2}),
                        title(f"{name}: a victory port, {sc.names[owner]}'")))
    tokens = token_boxes(view)
    for name, (lx, ly, lw, lh) in label_boxes(sc, tokens, width, height).items():
        x, y = at(sc.map.place_hex(name))
        ex, ey = min(max(x, lx), lx + lw), min(max(y, ly), ly + lh)  # the label's nearest point to its place
        if (ex - x) ** 2 + (ey - y) ** 2 > (R * 0.9) ** 2:  # far from its hex: a leader line says whose it is
            body.append(tag("line", {"class": "leader", "x1": fmt(x), "y1": fmt(y), "x2": fmt(ex), "y2": fmt(ey)}))
        body.append(text(lx + lw / 2, ly + lh / 2, name, "name"))
    for hid, sides in sorted(stacks_of(view).items()):
        x, y = at(hid)
        if len(sides) == 2:
            body.append(tag("circle", {"class": "contested", "cx": fmt(x), "cy": fmt(y), "r": R + 1}))
        for side, units in sorted(sides.items()):
            bx, by, bw, bh = tokens[(hid, side)]
            names = ", ".join(f"{u['short']} {u['attack']}-{u['defense']}-{u['movement']}" for u in units)
            body.append(tag("g", {"class": f"stack {side_class(side)}", "data-area": hid},
                            title(f"{st.hex_name(hid)}: {sc.names[side]}: {names}"),
                            tag("rect", {"x": fmt(bx), "y": fmt(by), "width": fmt(bw), "height": fmt(bh),
                                         "rx": 1.5}),
                            text(bx + bw / 2, by + bh / 2, str(len(units)))))
    battle = view.get("battle")
    if battle:
        x, y = at(battle["hex"])
        body.append(tag("circle", {"class": "battle", "cx": fmt(x), "cy": fmt(y), "r": R + 3}))
    key, extra = legend([(swatch("german"), sc.side_names["german"]), (swatch("allied"), sc.side_names["allied"]),
                         (tag("circle", {"cx": 10, "cy": 10, "r": 7, "style": "fill:none;stroke:#d4a017;"
                                         "stroke-width:2.5"}), "victory port (ring: its owner)"),
                         (tag("line", {"x1": 0, "y1": 10, "x2": 20, "y2": 10, "style": "stroke:#444;"
                                       "stroke-width:1.6;stroke-dasharray:4 2"}), "railway (1940)"),
                         (tag("line", {"x1": 0, "y1": 10, "x2": 20, "y2": 10, "style": "stroke:#3d7bb0;"
                                       "stroke-width:2.5"}), "fjord (no crossing)"),
                         (tag("line", {"x1": 0, "y1": 10, "x2": 20, "y2": 10, "style": "stroke:#6b4423;"
                                       "stroke-width:2.5"}), "mountain ridge")], width, height)
    return document(width, height + extra, f"{sc.title}: the map", "narvik", sc.sides, [*body, key], role="group")


def swatch(side: str) -> str:
    return tag("rect", {"x": 3, "y": 3, "width": 14, "height": 14, "rx": 2, "style": f"fill:{COLOURS[side]}"})


def hex_details(st: NarvikState, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """What the details panel shows for a clicked hex: its place, terrain and units."""
    rows: dict[str, list[list[str]]] = {}
    for u in view["units"]:
        marks = [m for m, on in (("disrupted", u["disrupted"]), ("overstacked", u["overstacked"]),
                                 ("absorbed", bool(u["absorbed_by"]))) if on]
        rows.setdefault(u["hex"], []).append(
            [st.sc.adjectives[u["side"]], f"{u['name']} {u['attack']}-{u['defense']}-{u['movement']}"
             + (f" ({', '.join(marks)})" if marks else "")])
    return {hid: {"title": st.hex_name(hid), "rows": [["terrain", st.sc.map.terrain[hid]], *units]}
            for hid, units in rows.items()}


MOVES = (Move, Rail, Truck, Land)
"""The actions given on the map rather than as buttons: a unit (or the battalion a truck carries) goes to a hex."""


def orders(st: NarvikState, legal: list[Any]) -> dict[str, Any] | None:
    """The moves open to the player to act, for the map: each unit that can move (the one a truck carries, for a
    truck), where it is, and its ways of moving, each an action's words but the last (the hex) with the hexes it
    reaches. The page builds each action as `prefix + " " + hex`: a few kilobytes where a button per move would
    be hundreds (the Germans' first move has some 1,200). `at` and `names` cover every hex named."""
    units: dict[str, dict[str, Any]] = {}
    hexes: set[str] = set()
    for a in legal:
        if not isinstance(a, MOVES):
            continue
        text = a.to_str()
        prefix = text[:-len(a.to) - 1]
        assert text == f"{prefix} {a.to}", text  # the page joins them back this way
        how = ("by rail" if isinstance(a, Rail) else f"in {unit_words(st, a.truck)}" if isinstance(a, Truck)
               else "by landing craft" if isinstance(a, Land) else "move")
        where = st.pos[a.unit]
        entry = units.setdefault(a.unit, {"id": a.unit, "words": unit_words(st, a.unit), "hex": where, "ways": {}})
        entry["ways"].setdefault(prefix, {"how": how, "prefix": prefix, "to": []})["to"].append(a.to)
        hexes.update((where, a.to))
    if not units:
        return None
    listed = sorted(units.values(), key=lambda u: (st.hex_name(u["hex"]), u["words"]))
    return {"r": R, "side": side_class(st.current_player()),
            "at": {h: [round(v, 2) for v in at(h)] for h in sorted(hexes)},
            "names": {h: st.hex_name(h) for h in sorted(hexes)},
            "units": [{**u, "ways": list(u["ways"].values())} for u in listed]}


def by_hex(plan: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The units that can move, grouped by the hex they are in (the unit list's sections)."""
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for u in plan["units"]:
        groups.setdefault(u["hex"], []).append(u)
    return [{"name": plan["names"][h], "units": us} for h, us in groups.items()]


def page(campaigns: Campaigns, who: Grant, shown: dict[str, Any], handed: str) -> tuple[str, dict[str, Any]]:
    """The template and context of a Narvik page: the same map for every link (the game is open)."""
    st: NarvikState = shown["state"]
    sc = st.sc
    view = shown["view"]
    legal = campaigns.legal_for(st, who)
    plan = orders(st, legal)
    buttons = [a for a in legal if not isinstance(a, MOVES)]
    actor = st.current_player()
    board = campaigns.drawing(shown["row"], None, lambda s, _side: board_svg(s, s.view(None)))
    battle = view.get("battle")
    return "narvik.html", {
        "board": board, "areas": hex_details(st, view),
        "view": {k: view[k] for k in ("seq", "epoch", "waiting", "terminal")},
        "you": "organiser" if who.role == "organiser" else seat_label(sc, who.role, who.side, st.params),
        "legal": bool(legal), "choices": choices(st, buttons), "asking": asking(st),
        "orders": plan, "movers": by_hex(plan) if plan else [],
        "to_act": sc.names.get(actor, ""), "phase": st.phase(), "turn": st.game_turn,
        "dates": view["dates"], "phasing": sc.names[st.phasing],
        "ports": {"german": len(view["victory_ports_german"]), "of": len(sc.victory_ports)},
        "vp": view["victory_points"], "names": sc.names, "standing": view["standing"],
        "battle": None if battle is None else {**battle, "name": st.hex_name(battle["hex"])},
        "outcome": st.outcome_text() if st.terminal else "",
    }
