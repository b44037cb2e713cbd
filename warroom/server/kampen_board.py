"""Kampen om Norge on the club server: the board as SVG, the hands as cards in words, and the page's context.

Everything is drawn from what the holder of a link may see: its player's view (`view.seat_view`: with two players
one person holds Norway and the Allies, and sees both hands and both countries' ships), the scenario's geometry
and its card texts. No rule is recomputed here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from warroom import rulesets
from warroom.core.geometry import inside
from warroom.rulesets.kampen.view import seat_view
from warroom.server.portable import ANY_SIDE, seat_label, seat_of
from warroom.server.svg import document, fmt, legend, side_class, tag, text, title
from warroom.server.territory import Ground, Layout, ground, remembered
from warroom.server.words import asking, choices

if TYPE_CHECKING:
    from warroom.rulesets.kampen.scenario import KampenScenario
    from warroom.rulesets.kampen.state import KampenState
    from warroom.server.service import Campaigns
    from warroom.server.store import Grant

AREA_R = 17
SEA_R = 30
CSS = """
.kampen .bg{fill:#cfe3f3}
.kampen .land-bg{fill:#efe8d4;stroke:#5d7f9c;stroke-width:2.5}
.kampen .cell{fill:var(--side,#efe8d4);fill-opacity:.25;stroke:#9c927a;stroke-width:1.2}
.kampen .cell.other{fill:#cfcabd;fill-opacity:.9}
.kampen .plate{fill:#fffdf6;fill-opacity:.9;stroke:#b9b09b;stroke-width:.6}
.kampen text{pointer-events:none}
.kampen .border{stroke:#8f866f;stroke-width:2.5}
.kampen .border.fjord,.kampen .border.lake{stroke:#3d7bb0;stroke-width:2.5;stroke-dasharray:7 5}
.kampen .coast{stroke:#7fa9cc;stroke-width:1;stroke-dasharray:2 4}
.kampen .area-disc{fill:#f7f3e6;stroke:#5b5446;stroke-width:1.5}
.kampen .held .area-disc{fill:var(--side)}
.kampen .point .ring{fill:none;stroke:#d4a017;stroke-width:4}
.kampen .name{font-size:15px}
.kampen .count{font-size:13px;font-weight:700;fill:#fff}
.kampen .tok{fill:var(--side);stroke:#222;stroke-width:.8}
.kampen .sea-disc{fill:#9cc3e4;stroke:#3d7bb0;stroke-width:2}
.kampen .sea-id{font-size:17px;font-weight:700}
.kampen .ship rect{fill:var(--side);stroke:#222}
.kampen .ship.hidden rect{stroke-dasharray:3 2;opacity:.75}
.kampen .ship text{fill:#fff;font-size:11px}
.kampen .attack{stroke:#c0392b;stroke-width:4;marker-end:url(#kampen-arrow)}
.kampen .arrowhead{fill:#c0392b}
.kampen .battle-ring{fill:none;stroke:#c0392b;stroke-width:5}
.kampen .other{fill:#d9d4c7;stroke:#a09a8a}
.kampen .raid rect{fill:#fff;stroke:#555;stroke-dasharray:5 3}
"""
COLOURS = {"germany": "#8e2b25", "norway": "#1f4e9c", "allies": "#2e7d4f"}
LETTER = {"germany": "G", "norway": "N", "allies": "A"}


def colours() -> str:
    return "".join(f".kampen .{side_class(c)}{{--side:{v}}}\n" for c, v in COLOURS.items())


def board_svg(sc: KampenScenario, view: Mapping[str, Any]) -> str:
    """The board as the view shows it: areas held and their battalions, point cities, attacks waiting at the
    borders, the battle being fought and, in the advanced game, the ship cards at sea (a face-down card as its
    country's '?')."""
    b = sc.board
    body: list[str] = [f"<style>{CSS}{colours()}</style>",
                       tag("defs", {}, tag("marker", {"id": "kampen-arrow", "viewBox": "0 0 10 10", "refX": 9,
                                                      "refY": 5, "markerWidth": 5, "markerHeight": 5,
                                                      "orient": "auto"},
                                           tag("path", {"class": "arrowhead", "d": "M0,0 L10,5 L0,10 z"}))),
                       tag("rect", {"class": "bg", "x": 0, "y": 0, "width": b.width, "height": b.height})]
    troops: Mapping[str, Mapping[str, int]] = view["troops"]
    ground = board_ground(sc)
    if ground.land:
        body.append(tag("path", {"class": "land-bg", "d": ground.land}))
    for aid, d in ground.cells.items():  # each area a territory, tinted by who holds it
        holder = holder_of(troops.get(aid, {}))
        cls = "cell other" if aid in b.inaccessible else f"cell {side_class(holder)}" if holder else "cell"
        body.append(tag("path", {"class": cls, "d": d, **({} if aid in b.inaccessible else {"data-area": aid})}))
    layout = Layout(b.width, b.height)
    for area in b.land.values():
        ring = AREA_R + (10 if (view.get("battle") or {}).get("area") == area.id else 4)
        layout.block((area.x - ring, area.y - ring, 2 * ring, 2 * ring))
        layout.block(badge_box(sc, area.x, area.y, troops.get(area.id, {})))
    for water in b.seas.values():
        layout.block((water.x - SEA_R - 8, water.y - SEA_R - 8, 2 * SEA_R + 16, 2 * SEA_R + 16))
    for o in b.inaccessible.values():
        layout.block((o.x - AREA_R - 6, o.y - AREA_R - 6, 2 * AREA_R + 12, 2 * AREA_R + 12))
    names = {aid: name_plate(name, x, y, layout, ground, aid) for aid, name, x, y in (
        *((a.id, a.name, a.x, a.y) for a in b.land.values()),
        *((o.id, o.name, o.x, o.y) for o in b.inaccessible.values()))}
    for o in b.inaccessible.values():
        body.append(tag("g", {"class": "inaccessible"}, tag("circle", {"class": "other", "cx": o.x, "cy": o.y,
                                                                        "r": AREA_R + 6}), names[o.id]))
    for area in b.land.values():  # each sea its coast faces, faintly
        for faced in sorted(area.seas):
            s = b.seas[faced]
            body.append(tag("line", {"class": "coast", "x1": area.x, "y1": area.y, "x2": s.x, "y2": s.y}))
    for border in b.borders:
        one, two = b.land.get(border.a), b.land.get(border.b)
        if one is not None and two is not None:
            body.append(tag("line", {"class": f"border {border.kind.value}", "x1": one.x, "y1": one.y,
                                     "x2": two.x, "y2": two.y}))
    for attacked, attack in view["attacks"].items():
        to = b.land[attacked]
        for origin in attack["from"]:
            frm = b.land.get(origin)
            if frm is not None:
                body.append(arrow(frm.x, frm.y, to.x, to.y, attack["country"], sc.names))
    for area in b.land.values():
        body.append(area_group(sc, area.id, troops.get(area.id, {}), view, names[area.id]))
    fleet: Mapping[str, Sequence[Mapping[str, Any]]] = view.get("fleet", {})
    for water in b.seas.values():
        body.append(sea_group(sc, water.id, fleet.get(water.id, ()), view))
    if "fleet" in view:
        x, y = b.raid_box
        body.append(tag("g", {"class": "raid"}, tag("rect", {"x": x - 60, "y": y - 24, "width": 120, "height": 48,
                                                             "rx": 6}),
                        text(x, y - 36, "raid box", "name"), *ship_tokens(sc, fleet.get("raid", ()), x, y - 8)))
    key, _ = legend([(swatch(c), sc.names[c]) for c in sc.countries]
                    + [(tag("circle", {"cx": 10, "cy": 10, "r": 8, "class": "ring", "style":
                                       "fill:none;stroke:#d4a017;stroke-width:3"}), "point city"),
                       (tag("line", {"x1": 0, "y1": 10, "x2": 20, "y2": 10, "style":
                                     "stroke:#3d7bb0;stroke-width:3;stroke-dasharray:5 3"}), "fjord or lake"),
                       (tag("line", {"x1": 0, "y1": 10, "x2": 20, "y2": 10, "style":
                                     "stroke:#c0392b;stroke-width:4"}), "attack waiting")], b.width, b.height)
    height = b.height + 90
    return document(b.width, height, f"{sc.title}: the board", "kampen", sc.countries, [*body, key])


def swatch(country: str) -> str:
    return tag("g", {"class": side_class(country)}, tag("rect", {"class": "tok", "x": 1, "y": 3, "width": 18,
                                                                  "height": 14, "rx": 2}))


def arrow(x1: float, y1: float, x2: float, y2: float, country: str, names: Mapping[str, str]) -> str:
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1.0)
    ux, uy = dx / length, dy / length
    return tag("line", {"class": f"attack {side_class(country)}", "x1": fmt(x1 + ux * AREA_R),
                        "y1": fmt(y1 + uy * AREA_R), "x2": fmt(x2 - ux * (AREA_R + 4)),
                        "y2": fmt(y2 - uy * (AREA_R + 4))}, title(f"{names[country]} attack"))


def board_ground(sc: KampenScenario) -> Ground:
    """The board's territories: a cell per land area and per inaccessible area on the land, clipped to the
    board's land outline (computed once per scenario)."""
    def build() -> Ground:
        b = sc.board
        centres = {a.id: (float(a.x), float(a.y)) for a in b.land.values()}
        centres.update({o.id: (float(o.x), float(o.y)) for o in b.inaccessible.values()
                        if not b.outline or inside(b.outline, o.x, o.y)})
        return ground(b.width, b.height, centres, b.outline, ())
    return remembered(sc, "board", build)


def holder_of(here: Mapping[str, int]) -> str:
    """Who holds an area: Germany wherever it has battalions, else the first of Norway and the Allies there."""
    return "germany" if here.get("germany") else next((c for c in ("norway", "allies") if here.get(c)), "")


BADGE_W = 30
BADGE_H = 17


def badge_box(sc: KampenScenario, x: float, y: float, here: Mapping[str, int]) -> tuple[float, float, float, float]:
    """The row of battalion counts under an area's disc."""
    n = sum(1 for c in sc.countries if here.get(c))
    w = max(n * (BADGE_W + 3) - 3, 0)
    return (x - w / 2, y + AREA_R + 3, w, BADGE_H if n else 0)


def name_plate(name: str, x: float, y: float, layout: Layout, ground: Ground, aid: str) -> str:
    """An area's name on a plate, where the layout finds room: above its disc first, inside its own territory."""
    w = 8 + 7.6 * len(name)
    above = (x, y - AREA_R - 5 - NAME_H / 2)
    spots = ground.spots(aid, x, y, w, NAME_H, AREA_R + 5, first=(above,))
    nx, ny = layout.place(w, NAME_H, spots) or layout.force(w, NAME_H, *above)
    return tag("g", {"class": "name-plate"}, tag("rect", {"class": "plate", "x": fmt(nx), "y": fmt(ny),
                                                          "width": fmt(w), "height": NAME_H, "rx": 3}),
               text(nx + w / 2, ny + NAME_H / 2, name, "name"))


NAME_H = 18


def area_group(sc: KampenScenario, aid: str, here: Mapping[str, int], view: Mapping[str, Any], name: str) -> str:
    a = sc.board.land[aid]
    holder = holder_of(here)
    classes = ["area", *(["held", side_class(holder)] if holder else []), *(["point"] if a.point_city else [])]
    battle = view.get("battle")
    parts = [title(area_tip(sc, aid, here)),
             tag("circle", {"class": "area-disc", "cx": a.x, "cy": a.y, "r": AREA_R})]
    if a.point_city:
        parts.append(tag("circle", {"class": "ring", "cx": a.x, "cy": a.y, "r": AREA_R + 4}))
    if battle is not None and battle["area"] == aid:
        parts.append(tag("circle", {"class": "battle-ring", "cx": a.x, "cy": a.y, "r": AREA_R + 10}))
    if a.airfield:
        parts.append(text(a.x, a.y, "✈", "count"))
    parts.append(name)
    countries = [c for c in sc.countries if here.get(c)]
    left = badge_box(sc, a.x, a.y, here)[0]
    for i, c in enumerate(countries):
        x = left + i * (BADGE_W + 3)
        parts.append(tag("g", {"class": f"battalions {side_class(c)}"},
                         tag("rect", {"class": "tok", "x": fmt(x), "y": a.y + AREA_R + 3, "width": BADGE_W,
                                      "height": BADGE_H, "rx": 3}),
                         text(x + BADGE_W / 2, a.y + AREA_R + 11.5, f"{LETTER[c]}{here[c]}", "count")))
    return tag("g", {"class": " ".join(classes), "data-area": aid}, *parts)


def area_tip(sc: KampenScenario, aid: str, here: Mapping[str, int]) -> str:
    a = sc.board.land[aid]
    held = ", ".join(f"{sc.names[c]} {n}" for c, n in here.items() if n) or "empty"
    marks = [m for m, on in (("point city", a.point_city), ("airfield", a.airfield),
                             ("mobilisation", a.mobilisation)) if on]
    return f"{a.name}: {held}" + (f" ({', '.join(marks)})" if marks else "")


def sea_group(sc: KampenScenario, sid: str, ships: Sequence[Mapping[str, Any]], view: Mapping[str, Any]) -> str:
    s = sc.board.seas[sid]
    parts = [title(f"sea area {sid}: {s.name}" + (" (mined)" if s.mined else "")),
             tag("circle", {"class": "sea-disc", "cx": s.x, "cy": s.y, "r": SEA_R}), text(s.x, s.y, sid, "sea-id"),
             *ship_tokens(sc, ships, s.x, s.y + SEA_R + 12)]
    sb = view.get("sea_battle")
    if sb is not None and sb["sea"] == sid:
        parts.append(tag("circle", {"class": "battle-ring", "cx": s.x, "cy": s.y, "r": SEA_R + 8}))
    return tag("g", {"class": "sea", "data-sea": sid}, *parts)


def ship_tokens(sc: KampenScenario, ships: Sequence[Mapping[str, Any]], cx: float, top: float) -> list[str]:
    out = []
    for i, ship in enumerate(ships):
        label = short(ship["name"]) if ship.get("ship") else "?"
        tip = ship["name"] if ship.get("ship") else f"a face-down {sc.names[ship['owner']]} ship card"
        w = 8 + 6.2 * len(label)
        y = top + i * 18
        out.append(tag("g", {"class": f"ship {side_class(ship['owner'])}" + ("" if ship.get("ship") else " hidden")},
                       title(tip), tag("rect", {"x": fmt(cx - w / 2), "y": fmt(y), "width": fmt(w), "height": 15,
                                                "rx": 2}),
                       text(cx, y + 7.5, label)))
    return out


def short(name: str, most: int = 14) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


# ----- the hands, in words -------------------------------------------------------------------------------------
def card_entry(sc: KampenScenario, key: str) -> dict[str, Any]:
    """A card as its holder reads it: name, reinforcement symbols and what each of its uses does."""
    card = sc.cards.cards[key.split("#", 1)[0]]
    return {"key": key, "name": card.name, "symbols": sc.symbols_of(key), "text": card.text,
            "uses": [use.text for use in card.uses], "april": sc.is_april(key)}


def ship_card_entry(sc: KampenScenario, key: str) -> dict[str, Any]:
    ship = sc.cards.ships.ships[key.split("#", 1)[0]]
    kind = sc.cards.ships.types[ship.type]
    return {"key": key, "name": ship.name, "type": kind.name}


def seat_countries(st: KampenState, seat: str) -> list[str]:
    """The countries whose decisions a link's holder makes: one, or Norway and the Allies with two players."""
    seats = rulesets.of(st).seats(st.sc, st.params)
    return [c for c in st.sc.countries if seats[c] == seat]


def context(st: KampenState, view: Mapping[str, Any], seat: str | None) -> dict[str, Any]:
    """What the Kampen om Norge page shows the holder of a link playing `seat` (None: the organiser or a
    spectator; a hot-seat link passes the seat of the country to act once the screen is handed over)."""
    sc = st.sc
    mine = seat_countries(st, seat) if seat else []
    hands = [{"country": c, "name": sc.names[c], "cards": [card_entry(sc, k) for k in view["hands"][c]],
              "ships": [ship_card_entry(sc, k) for k in view.get("ships_in_hand", {}).get(c, [])],
              "april_left": len(view.get("april_cards_left", {}).get(c, []))} for c in mine]
    cities = sorted(sc.board.point_cities)
    german = [c for c in cities if view["troops"].get(c, {}).get("germany")]
    decks = [{"country": c, "name": sc.names[c], "face_down": d["face_down"],
              "used": [sc.card_name(k) for k in d["used"][-5:]], "used_count": len(d["used"]),
              "hand": view["hands"][c] if isinstance(view["hands"][c], int) else len(view["hands"][c])}
             for c, d in view["decks"].items()]
    battle = view["battle"]
    return {"board": board_svg(sc, view), "hands": hands, "decks": decks, "names": sc.names,
            "point_cities": {"german": len(german), "of": len(cities)},
            "battle": None if battle is None else {**battle, "area_name": sc.board.land[battle["area"]].name},
            "areas": {a.id: {"title": a.name, "rows": [
                ["battalions", ", ".join(f"{sc.names[c]} {n}" for c, n in view["troops"].get(a.id, {}).items())
                 or "none"],
                ["point city", "yes" if a.point_city else "no"], ["airfield", "yes" if a.airfield else "no"]]}
                for a in sc.board.land.values()}}


def page(campaigns: Campaigns, who: Grant, shown: dict[str, Any], handed: str) -> tuple[str, dict[str, Any]]:
    """The template and context of a Kampen om Norge page. A country's link shows its own hand; a hot-seat link
    (everyone at one screen) shows the hand of the player to act only once the screen was handed to them
    (`handed`): until then it shows what every player may see, and no decision."""
    st: KampenState = shown["state"]
    sc = st.sc
    actor = st.current_player()
    actor_seat = seat_of(sc, st.params, actor) if actor in sc.countries else ""
    hotseat = who.side == ANY_SIDE
    handed_over = actor_seat if actor_seat and handed == actor_seat else None
    seat = handed_over if hotseat else who.side or None
    view = seat_view(st, seat) if hotseat else shown["view"]  # a player's own view is the one the service read
    legal = campaigns.legal_for(st, who) if seat is not None or not hotseat else []
    return "kampen.html", {
        **context(st, view, seat),
        "view": {k: shown["view"][k] for k in ("seq", "epoch", "waiting", "terminal")},  # the position: no secret
        "you": "organiser" if who.role == "organiser" else "every player, at one screen" if hotseat
        else seat_label(sc, who.role, who.side, st.params),
        "legal": bool(legal), "choices": choices(st, legal), "asking": asking(st),
        "hotseat": hotseat, "handover": sc.side_names[actor_seat] if hotseat and seat is None and actor_seat else "",
        "handover_seat": actor_seat, "seat": seat or "", "to_act": sc.names.get(actor, ""),
        "phase": st.phase(), "round": st.round, "country": sc.names[st.country],
        "outcome": st.outcome_text() if st.terminal else "",
    }
