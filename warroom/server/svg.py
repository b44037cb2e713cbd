"""SVG drawings for the club server (docs/server-plan.md, section 1): every map of a scenario and the VP chart.

The maps are drawn from a side's view (`state.view(side)`) and the scenario's geometry (map sizes, area
centres, borders, names) only: nothing hidden and no rule is recomputed here. Areas have centres, not
outlines, so an area is a disc and a border a line between two centres. Every SVG scales to its container
(a `viewBox`, no pixel size), carries a legend, and uses one CSS class per side (`side-<id>`, setting the
custom property `--side`) so pages can restyle it. All text is escaped.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from warroom.core.events import TurnEnded
from warroom.server.territory import Box, Ground, Layout, any_free, around, ground, remembered, token_block

if TYPE_CHECKING:
    from warroom.ai.analysis import Analysis
    from warroom.rulesets.firestorm.model import FirestormScenario
    from warroom.rulesets.firestorm.state import FirestormState

SVG_NS = "http://www.w3.org/2000/svg"
PALETTE = ("#3566a8", "#8c6d4f", "#2e8b57", "#8e44ad")
"""Default colours of the scenario's sides, in their order."""

AREA_R = 17
TOKEN_H = 15
FONT = 13
LEGEND_FONT = 15
LEGEND_ROW = 26

FLAG_MARKERS = {"beach": ("B", "beach"), "fortified": ("F", "fortified"), "harbour": ("H", "harbour"),
                "airfield": ("A", "airfield"), "rail": ("R", "railway")}
"""Area flags drawn as markers: the letter and its legend text."""

COUNTER_CATEGORY = {"battleship": "ship", "named": "ship", "carrier": "ship", "group": "ship",
                    "submarine": "submarine", "fighter": "aircraft", "bomber": "aircraft"}
LOCATION_KINDS = {"sea": "sea area", "land": "land region", "airfield": "airfield", "harbour": "harbour",
                  "home_port": "home port"}

CSS = """
.warroom-svg{font-family:system-ui,sans-serif}
.warroom-svg text{fill:#1d1d1d;pointer-events:none}
.warroom-svg .bg{fill:#f4f1e8}
.warroom-svg .bg.strategic{fill:#e3eef7}
.warroom-svg .border{stroke:#6f6a5f;stroke-width:1.2;stroke-dasharray:2 4;opacity:.8}
.warroom-svg .border.fjord{stroke:#2f7fc1;stroke-width:3;stroke-dasharray:10 7;opacity:1}
.warroom-svg .sea{fill:#b9d3e8}
.warroom-svg .land{fill:#efe9da;stroke:#5d7f9c;stroke-width:2.5}
.warroom-svg .cell{fill:var(--side,#ccc);fill-opacity:.28;stroke:#7b7466;stroke-width:1.2;cursor:pointer}
.warroom-svg .cell.fjord{fill:#8fb8dc;fill-opacity:.9}
.warroom-svg .cell:hover,.warroom-svg .cell.choosable,.warroom-svg .cell.hovered{fill-opacity:.5}
.warroom-svg .cell.chosen{fill-opacity:.65;stroke:#111;stroke-width:3}
.warroom-svg .terrain{pointer-events:none;opacity:.55}
.warroom-svg .river{fill:none;stroke:#2f7fc1;stroke-width:5;stroke-linecap:round;stroke-linejoin:round}
.warroom-svg .leader{stroke:#3b3b3b;stroke-width:1.2;opacity:.7}
.warroom-svg .plate{fill:#fffdf6;fill-opacity:.9;stroke:#b9b09b;stroke-width:.6}
.warroom-svg .battle-no{fill:#c0392b;stroke:#fff;stroke-width:1.5}
.warroom-svg .battle-no-text{fill:#fff;font-size:11px;font-weight:700}
.warroom-svg .area-disc{fill:var(--side,#ccc);stroke:#333;stroke-width:1.5}
.warroom-svg .area.fjord .area-disc{fill:#a9cbe8}
.warroom-svg .area-id{font-weight:700;fill:#fff;font-size:12px}
.warroom-svg .area-id.long{font-size:8px}
.warroom-svg .name{font-size:13px}
.warroom-svg .vp circle{fill:#f5c542;stroke:#6b5514}
.warroom-svg .vp text{font-size:11px;font-weight:700}
.warroom-svg .marker rect{fill:#fff;stroke:#555}
.warroom-svg .marker text{font-size:10px;font-weight:700}
.warroom-svg .marker.supply rect{fill:var(--side,#fff)}
.warroom-svg .marker.supply text{fill:#fff}
.warroom-svg .oos{fill:none;stroke:#d62728;stroke-width:3;stroke-dasharray:5 3}
.warroom-svg .tok{fill:var(--side,#ccc);stroke:#222;stroke-width:.8}
.warroom-svg .troop text,.warroom-svg .counter text{fill:#fff;font-size:10px}
.warroom-svg .battle line{stroke:#c0392b;stroke-width:5}
.warroom-svg .arrowhead{fill:#c0392b}
.warroom-svg .link{stroke:#7f97ad;stroke-width:2}
.warroom-svg .link-sea{stroke:#3d7bb0;stroke-width:3}
.warroom-svg .link-coast{stroke-dasharray:6 4}
.warroom-svg .link-land{stroke:#8a7a5a}
.warroom-svg .link-port,.warroom-svg .link-town,.warroom-svg .link-base{stroke-dasharray:2 3}
.warroom-svg .kind-sea .loc{fill:#bcd8ef;stroke:#3d7bb0}
.warroom-svg .kind-land .loc{fill:#d9ccaa;stroke:#7a6a44}
.warroom-svg .kind-airfield .loc,.warroom-svg .kind-harbour .loc,.warroom-svg .kind-home_port .loc{
fill:var(--side,#fff);stroke:#333;stroke-width:1.5}
.warroom-svg .unusable .loc{opacity:.4}
.warroom-svg .bombed-mark{stroke:#d62728;stroke-width:4}
.warroom-svg .defence circle{fill:#fff;stroke:#333}
.warroom-svg .defence text{font-size:10px;font-weight:700}
.warroom-svg .counter.submarine .tok{stroke-dasharray:3 2}
.warroom-svg .counter.activated .tok,.warroom-svg .fleet.activated .tok{stroke:#f1c40f;stroke-width:3}
.warroom-svg .fleet{cursor:pointer}
.warroom-svg .fleet-token .tok{fill:var(--side,#ccc)}
.warroom-svg .fleet-token text{fill:#fff;font-size:10px}
.warroom-svg .combat{fill:none;stroke:#c0392b;stroke-width:4}
.warroom-svg .group-path{fill:none;stroke:#c0392b;stroke-width:3;stroke-dasharray:8 5}
.warroom-svg .legend-bg{fill:#fff;stroke:#bbb}
.warroom-svg .legend text{font-size:15px}
.warroom-svg .axis{stroke:#333;stroke-width:1.5}
.warroom-svg .grid{stroke:#ddd}
.warroom-svg .vp-line{fill:none;stroke:var(--side,#333);stroke-width:3}
.warroom-svg .win-band{fill:var(--side,#333);fill-opacity:.18;stroke:none}
.warroom-svg .win-even{stroke:#777;stroke-dasharray:4 4}
.warroom-svg .win-mark{fill:#c0392b;stroke:#fff;stroke-width:1.5}
.warroom-svg .vp-dot{fill:var(--side,#333)}
"""


# ----- SVG text helpers ----------------------------------------------------------------------------------------
def attr(value: object) -> str:
    """An attribute value, escaped and quoted (a number needs no escaping: most of a map's attributes are)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f'"{value}"'
    return '"' + escape(str(value), {'"': "&quot;"}) + '"'


def tag(name: str, attrs: Mapping[str, object], *children: str) -> str:
    """An element; attributes whose value is None are left out."""
    head = name + "".join(f" {k}={attr(v)}" for k, v in attrs.items() if v is not None)
    return f"<{head}>{''.join(children)}</{name}>" if children else f"<{head}/>"


def text(x: float, y: float, content: str, cls: str = "", **extra: object) -> str:
    """A centred text label."""
    return tag("text", {"x": fmt(x), "y": fmt(y), "class": cls or None, "text-anchor": "middle",
                        "dominant-baseline": "central", **extra}, escape(content))


def title(content: str) -> str:
    """A tooltip for its parent element."""
    return f"<title>{escape(content)}</title>"


def fmt(v: float) -> str:
    """A coordinate with at most one decimal."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def slug(name: str) -> str:
    """A CSS class or id fragment for a side, map or kind."""
    return re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-") or "x"


def side_class(side: str) -> str:
    return f"side-{slug(side)}"


def side_css(sides: Iterable[str]) -> str:
    """The default colour of each side, as the custom property `--side` its class sets."""
    return "".join(f".warroom-svg .{side_class(s)}{{--side:{PALETTE[i % len(PALETTE)]}}}\n"
                   for i, s in enumerate(sides))


def document(width: int, height: int, label: str, cls: str, sides: Iterable[str], body: Iterable[str],
             data: Mapping[str, object] | None = None, role: str = "img") -> str:
    """A whole scalable SVG: a viewBox and no pixel size, so it fills its container (on a phone too). A map whose
    parts may be clicked or focused is a 'group', not an 'img' (whose parts assistive technology ignores)."""
    attrs: dict[str, object] = {"xmlns": SVG_NS, "viewBox": f"0 0 {width} {height}", "class": f"warroom-svg {cls}",
                                "preserveAspectRatio": "xMidYMid meet", "style": "width:100%;height:auto",
                                "role": role, "aria-label": label, **(data or {})}
    return tag("svg", attrs, title(label), f"<style>{CSS}{side_css(sides)}</style>", *body)


def short_label(ident: str, most: int = 11) -> str:
    """A token's short name: its id, with underscores as spaces, cut to `most` characters."""
    label = ident.replace("_", " ")
    return label if len(label) <= most else label[: most - 1] + "…"


def token_width(label: str) -> float:
    return 8 + 6.2 * len(label)


# ----- legend -----------------------------------------------------------------------------------------------
def legend(items: Sequence[tuple[str, str]], width: int, top: int) -> tuple[str, int]:
    """Legend items (a swatch drawn in a 20x20 box at the origin, and its text) in rows under the map.

    Returns the legend and its height."""
    parts: list[str] = []
    x, y = 12.0, top + 10.0
    for swatch, label in items:
        w = 34 + LEGEND_FONT * 0.58 * len(label)
        if x + w > width - 8 and x > 12:
            x, y = 12.0, y + LEGEND_ROW
        parts.append(tag("g", {"class": "legend-item", "transform": f"translate({fmt(x)},{fmt(y)})"}, swatch,
                         tag("text", {"x": 26, "y": 10, "dominant-baseline": "central"}, escape(label))))
        x += w + 14
    height = int(y - top + LEGEND_ROW + 8)
    bg = tag("rect", {"class": "legend-bg", "x": 2, "y": top + 2, "width": width - 4, "height": height - 4, "rx": 6})
    return tag("g", {"class": "legend"}, bg, *parts), height


def with_legend(width: int, height: int, items: Sequence[tuple[str, str]]) -> tuple[str, int]:
    """The legend placed under a map of this size, and the total height of the drawing."""
    drawn, h = legend(items, width, height)
    return drawn, height + h


def disc_swatch(cls: str) -> str:
    return tag("circle", {"class": cls, "cx": 10, "cy": 10, "r": 9})


def marker_swatch(letter: str, cls: str = "marker") -> str:
    return tag("g", {"class": cls}, tag("rect", {"x": 2, "y": 2, "width": 16, "height": 16, "rx": 3}),
               text(10, 10, letter))


def line_swatch(cls: str) -> str:
    return tag("line", {"class": cls, "x1": 0, "y1": 10, "x2": 20, "y2": 10})


# ----- land maps --------------------------------------------------------------------------------------------
def map_svgs(st: FirestormState, side: str | None) -> list[tuple[str, str]]:
    """One `(map id, SVG)` per map of the scenario, land maps first, then the Strategic Map if any.

    Drawn from `st.view(side)` and the scenario's geometry only (no hidden state, no seed)."""
    sc = st.sc
    view = st.view(side)
    out = [(mid, land_svg(sc, view, m)) for mid, m in sc.maps.items() if m["kind"] == "land"]
    out += [(mid, strategic_svg(sc, view, m)) for mid, m in sc.maps.items() if m["kind"] == "strategic"]
    return out


def land_svg(sc: FirestormScenario, view: Mapping[str, Any], m: Mapping[str, Any]) -> str:
    """A land map: the land and sea, each area's territory shaded by who holds it and by its terrain, rivers along
    the borders they follow, the connections of the rules, each area's disc with its VP, markers, name and troops
    laid out so that nothing overlaps, and the open battle arrows with their numbers."""
    mid = m["id"]
    rows = [a for a in view["areas"] if sc.areas[a["id"]].map == mid]
    here = {a["id"]: a for a in rows}
    ground = ground_of(sc, m)
    arrow_id = f"wr-arrow-{slug(mid)}"
    static = ground.layers.get("land") or ground.layers.setdefault(
        "land", static_layers(sc, m, rows, here, ground, arrow_id))
    body = [static["under"]]
    for a in rows:  # the territories by who holds them; their terrain and the rivers go over them
        classes = f"cell {side_class(a['controller'])}" + (" fjord" if "fjord" in a["flags"] else "")
        body.append(tag("path", {"class": classes, "d": ground.cells[a["id"]], "data-area": a["id"]}))
    body.append(static["over"])
    layout = Layout(m["width"], m["height"])
    for a in rows:
        for b in fixed_boxes(sc, a):
            layout.block(b)
    names = {a["id"]: name_label(a, layout, ground) for a in rows}  # every name first, then the troops
    placed = {a["id"]: {**names[a["id"]], **troop_labels(a, layout, ground)}
              for a in sorted(rows, key=lambda a: -len(a["troops"]))}
    body += [area_group(sc, a, placed[a["id"]]) for a in rows]
    body += [battle_arrow(sc, b, here, arrow_id) for b in open_battles(view) if b["from"] in here and b["to"] in here]
    label = f"{m['name']}, turn {view['turn']}"
    return document(m["width"], static["height"], label, "map-land", sc.sides, [*body, static["legend"]],
                    {"data-map": mid, "data-turn": view["turn"]})


def static_layers(sc: FirestormScenario, m: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
                  here: Mapping[str, Mapping[str, Any]], ground: Ground, arrow_id: str) -> dict[str, Any]:
    """What a land map draws alike in every position, drawn once (`Ground.layers`): under the territories the
    definitions, the sea and the land; over them the terrain, the rivers and the rules' borders; and the legend."""
    mid = m["id"]
    sea = bool(ground.land)
    under = [arrow_defs(arrow_id), terrain_defs(mid),
             tag("rect", {"class": "sea" if sea else "bg", "x": 0, "y": 0, "width": m["width"], "height": m["height"]})]
    if sea:
        under.append(tag("path", {"class": "land", "d": ground.land}))
    over = [tag("path", {"class": f"terrain terrain-{slug(a['terrain'])}", "d": ground.cells[a["id"]],
                         "fill": f"url(#wr-{slug(a['terrain'])}-{slug(mid)})"})
            for a in rows if a["terrain"] in TERRAIN_PATTERNS and "fjord" not in a["flags"]]
    over += [tag("g", {"class": "river-crossing", "data-river": name, "data-a": x, "data-b": y},
                 title(f"River {name}"), tag("path", {"class": "river", "d": d}))
             for x, y, name, d in ground.rivers if d]
    over += connections(sc, here)
    legend_drawn, height = with_legend(m["width"], m["height"], land_legend(sc, rows, sea))
    return {"under": "".join(under), "over": "".join(over), "legend": legend_drawn, "height": height}


def ground_of(sc: FirestormScenario, m: Mapping[str, Any]) -> Ground:
    """The territories of map `m` (computed once per scenario and map)."""
    def build() -> Ground:
        centres = {a.id: (float(a.x), float(a.y)) for a in sc.areas.values() if a.map == m["id"]}
        rivers = [(b.a, b.b, b.river) for b in sc.borders if b.river and b.a in centres and b.b in centres]
        return ground(m["width"], m["height"], centres, m.get("land", ()), rivers)
    return remembered(sc, m["id"], build)


TERRAIN_PATTERNS = {
    "bocage": '<path d="M0 8 Q4 4 8 8 T16 8" stroke="#3f6b2a" stroke-width="1.4" fill="none"/>'
              '<circle cx="12" cy="2" r="1.3" fill="#3f6b2a"/>',
    "city": '<rect x="2" y="2" width="5" height="5" fill="#5b5b5b"/><rect x="10" y="9" width="4" height="5" '
            'fill="#5b5b5b"/>',
    "forest": '<circle cx="4" cy="4" r="2.5" fill="#2f5d2a"/><circle cx="12" cy="11" r="2.5" fill="#2f5d2a"/>',
    "hills": '<path d="M1 12 Q5 5 9 12" stroke="#7a5a2a" stroke-width="1.3" fill="none"/>',
}
"""Each terrain drawn over its territories as a pattern of 16 x 16 (plain country has none)."""
TERRAIN_WORDS = {"bocage": "bocage (hedgerows)", "city": "town", "forest": "forest", "hills": "hills"}


def terrain_defs(mid: str) -> str:
    patterns = [tag("pattern", {"id": f"wr-{slug(t)}-{slug(mid)}", "width": 16, "height": 16,
                                "patternUnits": "userSpaceOnUse"}, shape) for t, shape in TERRAIN_PATTERNS.items()]
    return tag("defs", {}, *patterns)


def connections(sc: FirestormScenario, here: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The rules' borders as faint lines from disc to disc (which areas are neighbours); fjord crossings dashed."""
    out = []
    for b in sc.borders:
        if b.a not in here or b.b not in here:
            continue
        a, z = here[b.a], here[b.b]
        fjord = "fjord" in sc.areas[b.a].flags or "fjord" in sc.areas[b.b].flags
        out.append(tag("line", {"class": "border fjord" if fjord else "border", "x1": a["x"], "y1": a["y"],
                                "x2": z["x"], "y2": z["y"], "data-a": b.a, "data-b": b.b}))
    return out


VP_R = 11
MARK = 15
NAME_H = 15


def fixed_boxes(sc: FirestormScenario, a: Mapping[str, Any]) -> list[Box]:
    """What is drawn at an area's centre whatever else is there: its disc (with its out-of-supply ring), VP badge
    and markers."""
    x, y = a["x"], a["y"]
    r = AREA_R + (5 if not a["supplied"] else 0)
    out: list[Box] = [(x - r, y - r, 2 * r, 2 * r)]
    if a["vp"]:
        out.append((x + AREA_R - VP_R, y - AREA_R - VP_R, 2 * VP_R, 2 * VP_R))
    out += [(x - AREA_R - 20, y - AREA_R + i * 17, MARK, MARK) for i in range(len(marker_list(sc, a)))]
    return out


def name_width(name: str) -> float:
    return 8 + 6.6 * len(name)


def name_label(a: Mapping[str, Any], layout: Layout, ground: Ground) -> dict[str, Any]:
    """Where an area's name plate goes: the first free spot around its disc, inside its own territory if one is
    free there."""
    x, y = a["x"], a["y"]
    w = name_width(a["name"])
    spots = ground.spots(a["id"], x, y, w, NAME_H, AREA_R + 3)
    at = layout.place(w, NAME_H, spots) or layout.force(w, NAME_H, x, y + AREA_R + 3 + NAME_H / 2)
    return {"name": at, "name_w": w}


def troop_labels(a: Mapping[str, Any], layout: Layout, ground: Ground) -> dict[str, Any]:
    """Where an area's troop tokens go: a block in the first free spot around its disc (its own territory
    first), rows of up to 150, 230 or 90 units wide; when no block fits, one token counting them (its tooltip
    names them), forced next to the disc on a map too crowded for even that."""
    x, y = a["x"], a["y"]
    labels = [short_label(u) for u in a["troops"]]
    options = [token_block([token_width(lb) for lb in labels], width, TOKEN_H) for width in (150, 230, 90)]
    summary = f"{len(labels)} troops"
    options.append(token_block([token_width(summary)], 200, TOKEN_H))
    found = None
    if labels:
        found = any_free(layout, options, lambda bw, bh: ground.spots(a["id"], x, y, bw, bh, AREA_R + 3))
        if found is None:
            w, h = options[-1][0], options[-1][1]
            found = len(options) - 1, layout.force(w, h, x, y - AREA_R - 3 - h / 2)
    return {"tokens": found, "options": options, "labels": labels, "summary": summary}


def arrow_defs(arrow_id: str) -> str:
    head = tag("path", {"class": "arrowhead", "d": "M0,0 L10,5 L0,10 z"})
    return tag("defs", {}, tag("marker", {"id": arrow_id, "viewBox": "0 0 10 10", "refX": 8, "refY": 5,
                                          "markerWidth": 4, "markerHeight": 4, "orient": "auto-start-reverse"}, head))


def area_group(sc: FirestormScenario, a: Mapping[str, Any], placed: Mapping[str, Any]) -> str:
    """One area: its disc by controller, id, VP, markers and supply, and its name plate and troops where the layout
    put them."""
    x, y, controller = a["x"], a["y"], a["controller"]
    flags = set(a["flags"])
    classes = ["area", side_class(controller), f"terrain-{slug(a['terrain'])}"]
    if "fjord" in flags:
        classes.append("fjord")
    if not a["supplied"]:
        classes.append("unsupplied")
    supply = "in supply" if a["supplied"] else "OUT OF SUPPLY"
    tip = (f"{a['id']} {a['name']}: {a['vp']} VP, held by {sc.side_names.get(controller, controller)}, "
           f"{a['terrain']}, {supply}")
    parts = [title(tip), *leader(a, placed), tag("circle", {"class": f"area-disc {side_class(controller)}", "cx": x,
                                                           "cy": y, "r": AREA_R})]
    if not a["supplied"]:
        parts.append(tag("circle", {"class": "oos", "cx": x, "cy": y, "r": AREA_R + 5}, title("out of supply")))
    parts.append(text(x, y, a["id"], "area-id long" if len(a["id"]) > 3 else "area-id"))
    if placed["name"] is not None:
        nx, ny = placed["name"]
        w = placed["name_w"]
        parts.append(tag("g", {"class": "name-plate"},
                         tag("rect", {"class": "plate", "x": fmt(nx), "y": fmt(ny), "width": fmt(w),
                                      "height": NAME_H, "rx": 3}),
                         text(nx + w / 2, ny + NAME_H / 2, a["name"], "name")))
    if a["vp"]:
        parts.append(tag("g", {"class": "vp"}, title(f"{a['vp']} VP"),
                         tag("circle", {"cx": x + AREA_R, "cy": y - AREA_R, "r": VP_R}),
                         text(x + AREA_R, y - AREA_R, str(a["vp"]))))
    parts += area_markers(sc, a)
    parts += troop_tokens(sc, a["troops"], placed)
    return tag("g", {"class": " ".join(classes), "data-area": a["id"], "data-vp": a["vp"],
                     "data-controller": controller}, *parts)


def marker_list(sc: FirestormScenario, a: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """An area's lettered markers: the supply source first, then the flags."""
    marks: list[tuple[str, str, str]] = []
    if a["supply_source"]:
        who = sc.side_names.get(a["supply_source"], a["supply_source"])
        marks.append(("S", f"marker supply {side_class(a['supply_source'])}", f"supply source of {who}"))
    marks += [(FLAG_MARKERS[f][0], f"marker flag-{f}", FLAG_MARKERS[f][1]) for f in a["flags"] if f in FLAG_MARKERS]
    return marks


def area_markers(sc: FirestormScenario, a: Mapping[str, Any]) -> list[str]:
    """A column of lettered markers left of the disc."""
    out = []
    left, top = a["x"] - AREA_R - 20, a["y"] - AREA_R
    for i, (letter, cls, tip) in enumerate(marker_list(sc, a)):
        y = top + i * 17
        out.append(tag("g", {"class": cls}, title(tip),
                       tag("rect", {"x": left, "y": y, "width": MARK, "height": MARK, "rx": 3}),
                       text(left + 7.5, y + 7.5, letter)))
    return out


def token(cls: str, data: Mapping[str, object], label: str, tip: str, x: float, y: float, rx: float = 2) -> str:
    """A small labelled token with its full name as a tooltip."""
    w = token_width(label)
    return tag("g", {"class": cls, **data}, title(tip),
               tag("rect", {"class": "tok", "x": fmt(x), "y": fmt(y), "width": fmt(w), "height": TOKEN_H, "rx": rx}),
               text(x + w / 2, y + TOKEN_H / 2, label))


def troop_tokens(sc: FirestormScenario, troops: Sequence[str], placed: Mapping[str, Any]) -> list[str]:
    """An area's troops where the layout put them: one token each, or one counting them all (its tooltip names
    them, and each troop keeps an empty group of its own, so that the drawing still lists every troop)."""
    found = placed["tokens"]
    names = [f"{sc.troops[u].name} ({sc.side_names.get(sc.troops[u].side, sc.troops[u].side)})" for u in troops]
    listed = [tag("g", {"class": "troop in-summary", "data-unit": u}, title(n)) for u, n in zip(troops, names,
                                                                                             strict=True)]
    if not troops:
        return []
    if found is None:
        return listed
    index, (bx, by) = found
    if index == len(placed["options"]) - 1:  # the summary token
        side = sc.troops[troops[0]].side
        return [token(f"troop summary {side_class(side)}", {}, placed["summary"], "; ".join(names), bx, by), *listed]
    offsets = placed["options"][index][2]
    return [token(f"troop {side_class(sc.troops[u].side)}", {"data-unit": u}, label, name, bx + dx, by + dy)
            for u, label, name, (dx, dy) in zip(troops, placed["labels"], names, offsets, strict=True)]


def leader(a: Mapping[str, Any], placed: Mapping[str, Any]) -> list[str]:
    """A thin line from an area's disc to its troops when the layout had to put them further off."""
    found = placed["tokens"]
    if found is None:
        return []
    index, (bx, by) = found
    w, h = placed["options"][index][0], placed["options"][index][1]
    x, y = a["x"], a["y"]
    nx, ny = min(max(x, bx), bx + w), min(max(y, by), by + h)  # the block's point nearest the disc
    if math.hypot(nx - x, ny - y) <= AREA_R + 8:
        return []
    return [tag("line", {"class": "leader", "x1": x, "y1": y, "x2": fmt(nx), "y2": fmt(ny)})]


def open_battles(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The battles with an arrow on the map: the current one, and any parked ones if the view lists them."""
    current = [view["battle"]] if view.get("battle") else []
    return current + list(view.get("open_battles") or [])


def battle_arrow(sc: FirestormScenario, b: Mapping[str, Any], here: Mapping[str, Mapping[str, Any]],
                 arrow_id: str) -> str:
    """The battle arrow from the attacker's area to the attacked one, stopping at the discs."""
    a, z = here[b["from"]], here[b["to"]]
    dx, dy = z["x"] - a["x"], z["y"] - a["y"]
    dist = math.hypot(dx, dy) or 1.0
    cut = AREA_R + 4
    x1, y1 = a["x"] + dx * cut / dist, a["y"] + dy * cut / dist
    x2, y2 = z["x"] - dx * cut / dist, z["y"] - dy * cut / dist
    who = sc.side_names.get(b["attacker"], b["attacker"])
    at_table = f"battle {b['no']} at the table: " if b.get("no") else ""
    tip = f"{at_table}{who} attack {b['to']} from {b['from']} ({b['kind']} battle)"
    line = tag("line", {"x1": fmt(x1), "y1": fmt(y1), "x2": fmt(x2), "y2": fmt(y2), "marker-end": f"url(#{arrow_id})"})
    number = []
    if b.get("no"):  # the battle's number, where the arrow starts
        number = [tag("circle", {"class": "battle-no", "cx": fmt(x1), "cy": fmt(y1), "r": 10}),
                  text(x1, y1, str(b["no"]), "battle-no-text")]
    return tag("g", {"class": f"battle {side_class(b['attacker'])}", "data-from": b["from"], "data-to": b["to"]},
               title(tip), line, *number)


def land_legend(sc: FirestormScenario, rows: Sequence[Mapping[str, Any]], sea: bool = False) -> list[tuple[str, str]]:
    """Legend entries for what this map shows: sides, terrain, supply, VP, the flags in use, rivers and fjords."""
    items = [(disc_swatch(f"area-disc {side_class(s)}"), f"held by {sc.side_names.get(s, s)}") for s in sc.sides]
    terrains = sorted({a["terrain"] for a in rows if a["terrain"] in TERRAIN_PATTERNS})
    mid = sc.areas[rows[0]["id"]].map if rows else ""
    items += [(tag("rect", {"x": 1, "y": 1, "width": 18, "height": 18, "fill": f"url(#wr-{slug(t)}-{slug(mid)})",
                            "stroke": "#999"}), TERRAIN_WORDS[t]) for t in terrains]
    if sea:
        items.append((tag("rect", {"class": "sea", "x": 1, "y": 1, "width": 18, "height": 18}), "sea"))
    items.append((line_swatch("border"), "neighbours (the rules' borders)"))
    items.append((tag("g", {"class": "troop " + side_class(sc.sides[0])},
                      tag("rect", {"class": "tok", "x": 0, "y": 3, "width": 20, "height": 14, "rx": 2})), "troop"))
    items.append((marker_swatch("S", f"marker supply {side_class(sc.sides[0])}"), "supply source"))
    items.append((tag("circle", {"class": "oos", "cx": 10, "cy": 10, "r": 8}), "out of supply"))
    items.append((tag("g", {"class": "vp"}, tag("circle", {"cx": 10, "cy": 10, "r": 9}), text(10, 10, "#")), "VP"))
    used = {f for a in rows for f in a["flags"]}
    items += [(marker_swatch(letter), name) for f, (letter, name) in FLAG_MARKERS.items() if f in used]
    area_ids = {a["id"] for a in rows}
    if any(b.river and b.a in area_ids for b in sc.borders):
        items.append((tag("path", {"class": "river", "d": "M0,10 Q5,4 10,10 T20,10"}), "river"))
    if "fjord" in used:
        items.append((line_swatch("border fjord"), "fjord crossing"))
    arrow = tag("g", {"class": "battle"}, tag("line", {"x1": 0, "y1": 10, "x2": 20, "y2": 10}))
    items.append((arrow, "battle arrow"))
    return items


# ----- the Strategic Map (Norway) ------------------------------------------------------------------------------
def strategic_svg(sc: FirestormScenario, view: Mapping[str, Any], m: Mapping[str, Any]) -> str:
    """The naval and air Strategic Map: locations linked by their borders, each side's counters at a location as
    one fleet token with its counts (a click lists them), activated counters, bombed ports, and the Strategic Action
    under way. Names and fleets are laid out so that none overlaps another."""
    strat = view.get("strategic") or {}
    locations = strat.get("locations") or [location_row(sc, sid) for sid in sc.strat_areas]
    where = {loc["id"]: loc for loc in locations}
    body = [tag("rect", {"class": "bg strategic", "x": 0, "y": 0, "width": m["width"], "height": m["height"]})]
    body += [strategic_link(where, a, b, kind) for a, b, kind in sc.strat_borders if a in where and b in where]
    body += group_path(strat.get("group"), where)
    combat = strat.get("combat") or {}
    by_location: dict[str, list[Mapping[str, Any]]] = {}
    for c in strat.get("counters") or []:
        by_location.setdefault(c["location"], []).append(c)
    layout = Layout(m["width"], m["height"])
    for loc in locations:
        layout.block(location_box(loc))
    names = {loc["id"]: location_name(loc, layout) for loc in locations}  # every name first, then the fleets
    busy_first = sorted(locations, key=lambda loc: -len(by_location.get(loc["id"], [])))
    placed = {loc["id"]: {**names[loc["id"]], **location_fleets(sc, loc, by_location.get(loc["id"], []), layout)}
              for loc in busy_first}
    for loc in locations:
        fighting = combat.get("at") == loc["id"]
        body.append(location_group(sc, loc, by_location.get(loc["id"], []), fighting, placed[loc["id"]]))
    drawn, height = with_legend(m["width"], m["height"], strategic_legend(sc))
    label = f"{m['name']}, turn {view['turn']}"
    return document(m["width"], height, label, "map-strategic", sc.sides, [*body, drawn],
                    {"data-map": m["id"], "data-turn": view["turn"]}, role="group")


def location_box(loc: Mapping[str, Any]) -> Box:
    """The box of a location's shape (`location_shape`), with its defence badge."""
    x, y, kind = loc["x"], loc["y"], loc["kind"]
    half = {"sea": (30, 30), "land": (34, 18), "airfield": (14, 14), "home_port": (10, 10)}.get(kind, (8, 8))
    top = y - max(half[1], 20 if loc.get("defence") else 0)
    return (x - half[0], top, 2 * half[0] + (16 if loc.get("defence") else 0), y + half[1] - top)


def fleets(sc: FirestormScenario, counters: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """A location's counters by side, in the scenario's side order."""
    return [(s, [c for c in counters if c["side"] == s]) for s in sc.sides if any(c["side"] == s for c in counters)]


def fleet_label(members: Sequence[Mapping[str, Any]]) -> str:
    """'3 ships, 1 sub, 2 aircraft' (and '*' when one of them is activated)."""
    counts: dict[str, int] = {}
    for c in members:
        category = COUNTER_CATEGORY.get(c["type"], "ship")
        counts[category] = counts.get(category, 0) + 1
    words = {"ship": ("ship", "ships"), "submarine": ("sub", "subs"), "aircraft": ("aircraft", "aircraft")}
    text_ = ", ".join(f"{n} {words[k][n != 1]}" for k, n in counts.items())
    return text_ + (" *" if any(c["activated"] for c in members) else "")


def location_name(loc: Mapping[str, Any], layout: Layout) -> dict[str, Any]:
    """Where a location's name goes: the first free spot around it (forced next to it if none is)."""
    x, y = loc["x"], loc["y"]
    near = location_near(loc)
    w = name_width(loc["name"])
    at = layout.place(w, NAME_H, around(x, y, w, NAME_H, near)) or layout.force(w, NAME_H, x, y + near + NAME_H / 2)
    return {"name": at, "name_w": w}


def location_near(loc: Mapping[str, Any]) -> float:
    box = location_box(loc)
    return max(box[2], box[3]) / 2 + 2


def location_fleets(sc: FirestormScenario, loc: Mapping[str, Any], counters: Sequence[Mapping[str, Any]],
                    layout: Layout) -> dict[str, Any]:
    """Where a location's fleets go: the first free spots around it (each forced next to it if none is)."""
    x, y = loc["x"], loc["y"]
    near = location_near(loc)
    spots = []
    for side, members in fleets(sc, counters):
        label = fleet_label(members)
        fw = token_width(label)
        at = layout.place(fw, TOKEN_H, around(x, y, fw, TOKEN_H, near, rings=10)) or \
            layout.force(fw, TOKEN_H, x, y - near - TOKEN_H / 2)
        spots.append((side, members, label, at))
    return {"fleets": spots}


def location_row(sc: FirestormScenario, sid: str) -> dict[str, Any]:
    """A location's geometry when the view has no Strategic Game section (nothing bombed, no counters)."""
    s = sc.strat_areas[sid]
    return {"id": s.id, "name": s.name, "kind": s.kind, "x": s.x, "y": s.y, "side": s.side, "defence": s.defence,
            "bombed": False}


def strategic_link(where: Mapping[str, Mapping[str, Any]], a: str, b: str, kind: str) -> str:
    p, q = where[a], where[b]
    return tag("line", {"class": f"link link-{slug(kind)}", "x1": p["x"], "y1": p["y"], "x2": q["x"], "y2": q["y"],
                        "data-a": a, "data-b": b})


def group_path(group: Mapping[str, Any] | None, where: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The path of the Strategic Action under way, as a dashed line."""
    if not group:
        return []
    steps = [where[s] for s in group.get("path") or [] if s in where]
    if len(steps) < 2:
        return []
    points = " ".join(f"{p['x']},{p['y']}" for p in steps)
    return [tag("polyline", {"class": f"group-path {side_class(group['side'])}", "points": points},
                title(f"{group['kind']} under way"))]


def location_shape(loc: Mapping[str, Any]) -> str:
    """Sea areas are large discs, land regions boxes, airfields diamonds, harbours and home ports squares."""
    x, y, kind = loc["x"], loc["y"], loc["kind"]
    if kind == "sea":
        return tag("circle", {"class": "loc", "cx": x, "cy": y, "r": 30})
    if kind == "land":
        return tag("rect", {"class": "loc", "x": x - 34, "y": y - 18, "width": 68, "height": 36, "rx": 8})
    if kind == "airfield":
        return tag("polygon", {"class": "loc", "points": f"{x},{y - 14} {x + 14},{y} {x},{y + 14} {x - 14},{y}"})
    size = 20 if kind == "home_port" else 16
    return tag("rect", {"class": "loc", "x": x - size / 2, "y": y - size / 2, "width": size, "height": size})


def location_group(sc: FirestormScenario, loc: Mapping[str, Any], counters: Sequence[Mapping[str, Any]],
                   fighting: bool, placed: Mapping[str, Any]) -> str:
    """A location with its name, defence, bombing, and its fleets where the layout put them."""
    x, y, kind = loc["x"], loc["y"], loc["kind"]
    classes = ["location", f"kind-{slug(kind)}"]
    if loc.get("side"):
        classes.append(side_class(loc["side"]))
    if loc.get("bombed"):
        classes.append("bombed")
    if loc.get("usable") is False:
        classes.append("unusable")
    tip = f"{loc['id']} {loc['name']}: {LOCATION_KINDS.get(kind, kind)}"
    if loc.get("side"):
        tip += f" ({sc.side_names.get(loc['side'], loc['side'])})"
    if loc.get("defence"):
        tip += f", defence {loc['defence']}"
    if loc.get("bombed"):
        tip += ", bombed"
    if loc.get("usable") is False:
        tip += ", not usable"
    parts = [title(tip), location_shape(loc)]
    if fighting:
        parts.append(tag("circle", {"class": "combat", "cx": x, "cy": y, "r": 36}, title("fight here")))
    if kind in ("sea", "land"):
        parts.append(text(x, y, loc["id"], "loc-id", **{"font-weight": 700}))
    if placed["name"] is not None:
        nx, ny = placed["name"]
        parts.append(tag("g", {"class": "name-plate"},
                         tag("rect", {"class": "plate", "x": fmt(nx), "y": fmt(ny), "width": fmt(placed["name_w"]),
                                      "height": NAME_H, "rx": 3}),
                         text(nx + placed["name_w"] / 2, ny + NAME_H / 2, loc["name"], "name")))
    if loc.get("defence"):
        parts.append(tag("g", {"class": "defence"}, title(f"harbour defence {loc['defence']}"),
                         tag("circle", {"cx": x + 14, "cy": y - 12, "r": 8}),
                         text(x + 14, y - 12, str(loc["defence"]))))
    if loc.get("bombed"):
        parts.append(tag("g", {"class": "bombed-mark"}, title("bombed"),
                         tag("line", {"x1": x - 10, "y1": y - 10, "x2": x + 10, "y2": y + 10}),
                         tag("line", {"x1": x - 10, "y1": y + 10, "x2": x + 10, "y2": y - 10})))
    for side, members, label, spot in placed["fleets"]:
        parts.append(fleet_token(sc, loc, side, members, label, spot))
    return tag("g", {"class": " ".join(classes), "data-location": loc["id"], "data-kind": kind}, *parts)


def fleet_token(sc: FirestormScenario, loc: Mapping[str, Any], side: str, members: Sequence[Mapping[str, Any]],
                label: str, spot: tuple[float, float] | None) -> str:
    """One side's counters at a location as one token with their counts; each counter keeps a group of its own
    (named in its tooltip, classed by side, kind and activation) for the page to list when the token is clicked."""
    listed = []
    for c in members:
        category = COUNTER_CATEGORY.get(c["type"], "ship")
        classes = f"counter {side_class(c['side'])} {category} type-{slug(c['type'])}"
        tip = f"{c['name']} ({sc.side_names.get(c['side'], c['side'])} {c['type']}"
        tip += f", {c['cv']} CV" if c.get("cv") else ""
        tip += ", activated)" if c["activated"] else ")"
        listed.append(tag("g", {"class": classes + (" activated" if c["activated"] else ""), "data-counter": c["id"]},
                          title(tip)))
    who = sc.side_names.get(side, side)
    tip = f"{who} at {loc['name']}: {label} (click for the list)"
    classes = f"fleet {side_class(side)}" + (" activated" if any(c["activated"] for c in members) else "")
    data = {"data-area": fleet_id(loc["id"], side), "tabindex": 0, "role": "button", "aria-label": tip}
    if spot is None:
        return tag("g", {"class": classes, **data}, title(tip), *listed)
    x, y = spot
    return tag("g", {"class": classes, **data}, token("fleet-token", {}, label, tip, x, y), *listed)


def fleet_id(location: str, side: str) -> str:
    """The id a fleet token answers to on the page (its list among the area details)."""
    return f"fleet:{location}:{side}"


def strategic_legend(sc: FirestormScenario) -> list[tuple[str, str]]:
    items = [(tag("g", {"class": f"kind-{k}"}, location_shape({"x": 10, "y": 10, "kind": k})
                  if k not in ("sea", "land") else tag("circle", {"class": "loc", "cx": 10, "cy": 10, "r": 9})),
              label) for k, label in LOCATION_KINDS.items()]
    for s in sc.sides:
        name = sc.side_names.get(s, s)
        for category, rx in (("ship", 2), ("submarine", 7), ("aircraft", 0)):
            swatch = tag("g", {"class": f"counter {side_class(s)} {category}"},
                         tag("rect", {"class": "tok", "x": 0, "y": 3, "width": 20, "height": 14, "rx": rx}))
            items.append((swatch, f"{name} {category}"))
    items.append((tag("g", {"class": f"fleet-token {side_class(sc.sides[0])}"},
                      tag("rect", {"class": "tok", "x": 0, "y": 3, "width": 20, "height": 14, "rx": 2})),
                   "a side's fleet (click it for the list)"))
    items.append((text(10, 10, "*"), "activated"))
    items.append((tag("g", {"class": "bombed-mark"}, tag("line", {"x1": 2, "y1": 2, "x2": 18, "y2": 18}),
                      tag("line", {"x1": 2, "y1": 18, "x2": 18, "y2": 2})), "bombed"))
    items.append((tag("g", {"class": "defence"}, tag("circle", {"cx": 10, "cy": 10, "r": 8}), text(10, 10, "2")),
                  "harbour defence"))
    items += [(line_swatch(f"link link-{k}"), f"{k} link") for k in ("sea", "coast", "land")]
    return items


# ----- VP over time ------------------------------------------------------------------------------------------
def vp_history(st: FirestormState) -> list[tuple[int, dict[str, int]]]:
    """Each side's total VP after each finished turn, from the rules' `TurnEnded` events (empty when the state
    records no events)."""
    return [(e.turn, dict(e.score)) for e in st.happened if isinstance(e, TurnEnded)]


def nice_step(span: float, ticks: int = 5) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving about `ticks` ticks over `span`."""
    raw = max(span / ticks, 1.0)
    power = 10 ** math.floor(math.log10(raw))
    return int(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def vp_chart_svg(points: Sequence[tuple[int, dict[str, int]]], side_names: dict[str, str]) -> str:
    """A line chart of each side's total VP after each turn: x = turn, y = VP, one polyline per side."""
    width, height, left, right, top, bottom = 640, 360, 72, 20, 20, 50
    turns = [t for t, _ in points]
    t_lo = min(turns, default=1)
    t_hi = max(max(turns, default=1), t_lo + 1)
    values = [0, *(v for _, vp in points for v in vp.values())]
    step = nice_step(max(values) - min(values))
    v_lo = math.floor(min(values) / step) * step
    v_hi = max(math.ceil(max(values) / step) * step, v_lo + step)

    def sx(t: float) -> float:
        return left + (t - t_lo) / (t_hi - t_lo) * (width - left - right)

    def sy(v: float) -> float:
        return height - bottom - (v - v_lo) / (v_hi - v_lo) * (height - top - bottom)

    body = chart_axes(sx, sy, (t_lo, t_hi), (v_lo, v_hi, step), (height, left))
    for side, name in side_names.items():
        series = [(t, vp[side]) for t, vp in points if side in vp]
        cls = side_class(side)
        coords = " ".join(f"{fmt(sx(t))},{fmt(sy(v))}" for t, v in series)
        dots = [tag("circle", {"class": f"vp-dot {cls}", "cx": fmt(sx(t)), "cy": fmt(sy(v)), "r": 4},
                    title(f"Turn {t}: {name} {v} VP")) for t, v in series]
        body.append(tag("g", {"class": f"vp-series {cls}", "data-side": side},
                        tag("polyline", {"class": f"vp-line {cls}", "points": coords}), *dots))
    if not points:
        body.append(text((left + width - right) / 2, (top + height - bottom) / 2, "No turn has ended yet", "empty"))
    items = [(line_swatch(f"vp-line {side_class(s)}"), name) for s, name in side_names.items()]
    drawn, total = with_legend(width, height, items)
    return document(width, total, "Victory points after each turn", "vp-chart", side_names, [*body, drawn])


def chart_axes(sx: Callable[[float], float], sy: Callable[[float], float], turns: tuple[int, int],
               vps: tuple[int, int, int], box: tuple[int, int]) -> list[str]:
    """The axes, their ticks, grid lines and labels (`box`: the chart's height and left margin)."""
    (t_lo, t_hi), (v_lo, v_hi, step), (height, left) = turns, vps, box
    base, right = sy(v_lo), sx(t_hi)
    out = [tag("line", {"class": "axis", "x1": left, "y1": fmt(base), "x2": fmt(right), "y2": fmt(base)}),
           tag("line", {"class": "axis", "x1": left, "y1": fmt(base), "x2": left, "y2": fmt(sy(v_hi))})]
    t_step = max(1, nice_step(t_hi - t_lo, 10))
    for t in range(t_lo, t_hi + 1, t_step):
        out.append(tag("g", {"class": "tick x-tick"},
                       tag("line", {"class": "axis", "x1": fmt(sx(t)), "y1": fmt(base), "x2": fmt(sx(t)),
                                    "y2": fmt(base + 6)}), text(sx(t), base + 16, str(t))))
    for v in range(v_lo, v_hi + 1, step):
        out.append(tag("g", {"class": "tick y-tick"},
                       tag("line", {"class": "grid", "x1": left, "y1": fmt(sy(v)), "x2": fmt(right), "y2": fmt(sy(v))}),
                       text(left - 8, sy(v), str(v), "", **{"text-anchor": "end"})))
    out.append(text((left + right) / 2, height - 14, "Turn", "axis-label"))
    mid = fmt((sy(v_lo) + sy(v_hi)) / 2)
    out.append(text(0, 0, "VP", "axis-label", transform=f"translate(14,{mid}) rotate(-90)"))
    return out


def win_graph(an: Analysis, name: Callable[[str], str]) -> str:
    """The first camp's expected result at every position of a finished game (1 = a win), with its 95% band, and a
    mark at each camp's costliest decisions: the win-probability graph of `ai.analysis`."""
    width, height, left, right, top, bottom = 720, 320, 84, 20, 20, 50
    points = an.points
    last = max(len(points) - 1, 1)
    first = an.camps[0]
    cls = side_class(first)

    def sx(i: float) -> float:
        return left + i / last * (width - left - right)

    def sy(v: float) -> float:
        return height - bottom - max(0.0, min(1.0, v)) * (height - top - bottom)

    body = [tag("line", {"class": "axis", "x1": left, "y1": fmt(sy(0)), "x2": fmt(sx(last)), "y2": fmt(sy(0))}),
            tag("line", {"class": "axis", "x1": left, "y1": fmt(sy(0)), "x2": left, "y2": fmt(sy(1))}),
            tag("line", {"class": "win-even", "x1": left, "y1": fmt(sy(0.5)), "x2": fmt(sx(last)),
                         "y2": fmt(sy(0.5))})]
    for v in (0.0, 0.25, 0.5, 0.75, 1.0):
        body.append(text(left - 8, sy(v), f"{v:.0%}", "", **{"text-anchor": "end"}))
    seen: set[int] = set()
    for i, p in enumerate(points):
        if p.turn not in seen and p.who:
            seen.add(p.turn)
            body.append(tag("g", {"class": "tick x-tick"},
                            tag("line", {"class": "grid", "x1": fmt(sx(i)), "y1": fmt(sy(0)), "x2": fmt(sx(i)),
                                         "y2": fmt(sy(1))}), text(sx(i), sy(0) + 16, str(p.turn))))
    upper = [f"{fmt(sx(i))},{fmt(sy(p.first.high))}" for i, p in enumerate(points)]
    lower = [f"{fmt(sx(i))},{fmt(sy(p.first.low))}" for i, p in reversed(list(enumerate(points)))]
    body.append(tag("polygon", {"class": f"win-band {cls}", "points": " ".join(upper + lower)}))
    body.append(tag("polyline", {"class": f"vp-line {cls}", "points": " ".join(
        f"{fmt(sx(i))},{fmt(sy(p.first.value))}" for i, p in enumerate(points))}))
    for camp, swings in an.costly.items():
        for sw in swings[:3]:
            p = points[sw.index]
            body.append(tag("circle", {"class": "win-mark", "cx": fmt(sx(sw.index)), "cy": fmt(sy(p.first.value)),
                                       "r": 5, "data-index": sw.index},
                            title(f"Turn {sw.turn}, {name(camp)}: {sw.text} (cost {sw.change.value:.0%})")))
    body.append(text((left + width - right) / 2, height - 14, "Turn", "axis-label"))
    mid = fmt((sy(0) + sy(1)) / 2)
    body.append(text(0, 0, f"{name(first)}: expected result", "axis-label",
                     transform=f"translate(16,{mid}) rotate(-90)"))
    items = [(line_swatch(f"vp-line {cls}"), f"{name(first)}: expected result (band: 95%)"),
             (disc_swatch("win-mark"), "a costly decision")]
    drawn, total = with_legend(width, height, items)
    return document(width, total, f"{name(first)}: win probability through the game", "win-graph", an.camps,
                    [*body, drawn])
