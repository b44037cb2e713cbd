"""The land maps as territories (issue 16): a cell per area clipped to the land, rivers along shared borders,
terrain, and labels and troop tokens that never overlap, on every bundled map in many positions."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
import shapely
from test_svg import play

from warroom import rulesets
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.scenarios import load_game, load_scenario
from warroom.server.kampen_board import board_svg
from warroom.server.svg import ground_of, map_svgs
from warroom.server.territory import Box, Layout, around, ground, overlaps, token_block

SVG = "{http://www.w3.org/2000/svg}"


def boxes(root: ET.Element) -> tuple[list[tuple[str, Box]], list[Box]]:
    """(what, box) of every token and name plate drawn on a map, and the boxes of what sits at area centres."""
    placed: list[tuple[str, Box]] = []
    fixed: list[Box] = []
    for g in root.iter(f"{SVG}g"):
        cls = set(g.get("class", "").split())
        rect = g.find(f"{SVG}rect")
        if rect is not None and ("troop" in cls or "name-plate" in cls):
            b = tuple(float(rect.get(k, "0")) for k in ("x", "y", "width", "height"))
            what = "name" if "name-plate" in cls else g.get("data-unit") or "a count of troops"
            placed.append((what, b))  # type: ignore[arg-type]
        if "area" in cls and g.get("data-area"):
            disc = g.find(f"{SVG}circle")
            assert disc is not None
            cx, cy, r = (float(disc.get(k, "0")) for k in ("cx", "cy", "r"))
            fixed.append((cx - r, cy - r, 2 * r, 2 * r))
    return placed, fixed


def positions(scenario: str) -> list[FirestormState]:
    """Several positions of a scenario: its start and random play to four depths under three seeds."""
    out = [new_game(load_scenario(scenario))]
    for seed in (1, 2, 3):
        for depth in (30, 120, 400, 2000):
            out.append(play(new_game(load_scenario(scenario)), seed=seed, most=depth))
    return out


@pytest.mark.parametrize("scenario", ["caen", "lorraine", "norway"])
def test_no_token_or_label_overlaps_another_on_any_map(scenario: str) -> None:
    seen_summary = drawn = at_home = 0
    for st in positions(scenario):
        view = st.view(None)
        troops = {a["id"]: a["troops"] for a in view["areas"]}
        for mid, svg in map_svgs(st, None):
            if st.sc.maps[mid]["kind"] != "land":
                continue
            root = ET.fromstring(svg)
            m = st.sc.maps[mid]
            placed, fixed = boxes(root)
            areas_here = [a for a in view["areas"] if st.sc.areas[a["id"]].map == mid]
            assert sum(w == "name" for w, _b in placed) == len(areas_here), "every area's name has a plate"
            drawn += len(placed)
            for i, (what, b) in enumerate(placed):
                assert b[0] >= 0 and b[0] + b[2] <= m["width"] and b[1] >= 0 and b[1] + b[3] <= m["height"], what
                for other, c in placed[i + 1:]:
                    assert not overlaps(b, c, gap=0), (scenario, mid, st.turn, what, other)
                for c in fixed:
                    assert not overlaps(b, c, gap=0), (scenario, mid, st.turn, what, "a disc")
            shapes = ground_of(st.sc, m).shapes
            for g in root.iter(f"{SVG}g"):
                aid = g.get("data-area")
                if not aid or "area" not in g.get("class", ""):
                    continue
                for part in g.iter(f"{SVG}g"):
                    rect = part.find(f"{SVG}rect")
                    if rect is not None and ("name-plate" in part.get("class", "") or "troop" in part.get("class", "")):
                        x, y, w, h = (float(rect.get(k, "0")) for k in ("x", "y", "width", "height"))
                        at_home += bool(shapely.contains_xy(shapes[aid], x + w / 2, y + h / 2))
                units = [t.get("data-unit") for t in g.iter(f"{SVG}g") if t.get("data-unit")]
                assert units == troops[aid], "every troop is in the drawing"
                visible = [t for t in g.iter(f"{SVG}g") if "troop" in t.get("class", "")
                           and t.find(f"{SVG}rect") is not None]
                assert bool(visible) == bool(troops[aid]), (aid, "troops are seen, one by one or counted")
                seen_summary += any("summary" in t.get("class", "") for t in visible)
    assert drawn > 500 and seen_summary < 20, (drawn, seen_summary)
    assert at_home / drawn >= 0.88, f"{at_home} of {drawn} labels and tokens inside their own area's territory"


def test_territories_cover_the_land_and_follow_the_centres() -> None:
    centres = {"a": (100.0, 100.0), "b": (300.0, 100.0), "c": (200.0, 300.0)}
    g = ground(400, 400, centres, [(0, 0), (400, 0), (400, 350), (0, 350)], [("a", "b", "Orne")])
    assert set(g.cells) == {"a", "b", "c"} and all(d.startswith("M") for d in g.cells.values())
    assert g.land.startswith("M") and "350" in g.land, "the land outline"
    (_, _, name, river), = g.rivers
    assert name == "Orne" and river.startswith("M200.0,"), "the river runs along the edge a and b share"
    whole = ground(400, 400, centres, [], [])
    assert whole.land == "", "no outline: all land"


def test_the_layout_never_overlaps_and_says_when_it_cannot_place() -> None:
    layout = Layout(200, 200)
    layout.block((90, 90, 20, 20))
    corners = [layout.place(40, 15, around(100, 100, 40, 15, 12)) for _ in range(30)]
    placed = [c for c in corners if c is not None]
    boxes_ = [(x, y, 40.0, 15.0) for x, y in placed]
    assert len(placed) >= 8
    assert not any(overlaps(a, b, gap=0) for i, a in enumerate(boxes_) for b in boxes_[i + 1:])
    assert not any(overlaps(b, (90, 90, 20, 20), gap=0) for b in boxes_)
    assert Layout(10, 10).place(40, 15, [(5, 5)]) is None, "too big for the map: nowhere"
    w, h, offsets = token_block([50, 50, 50], 110, 15)
    assert (w, h) == (103, 32) and offsets[2] == (26.5, 17), "two rows, the second centred"


def test_the_strategic_map_names_every_location_and_overlaps_nothing() -> None:
    for st in positions("norway"):
        root = ET.fromstring(dict(map_svgs(st, None))["strategic"])
        plates: list[Box] = []
        for g in root.iter(f"{SVG}g"):
            cls = set(g.get("class", "").split())
            rect = g.find(f"{SVG}rect")
            if rect is not None and ("name-plate" in cls or "fleet-token" in cls):
                plates.append(tuple(float(rect.get(k, "0")) for k in ("x", "y", "width", "height")))  # type: ignore[arg-type]
        names = [g for g in root.iter(f"{SVG}g") if "name-plate" in g.get("class", "")]
        assert len(names) == len(st.sc.strat_areas), "every location is named"
        assert not any(overlaps(a, b, gap=0) for i, a in enumerate(plates) for b in plates[i + 1:]), st.turn


def test_a_map_too_crowded_to_lay_out_still_shows_every_troop_and_name() -> None:
    layout = Layout(60, 40)
    layout.block((0, 0, 60, 40))  # nothing is free
    assert layout.place(20, 10, around(30, 20, 20, 10, 5)) is None
    x, y = layout.force(80, 10, 30, 20)
    assert (x, y) == (0, 15), "forced inside the map, next to its point"


def test_the_kampen_board_is_territories_with_names_and_counts_that_never_overlap() -> None:
    boxes_seen = 0
    for advanced in (False, True):
        for seed, depth in ((1, 0), (1, 150), (2, 600), (3, 1500)):
            st = rulesets.new_game(load_game("kampen"), {"seed": seed, "seats": 3, "advanced": advanced})
            rng = random.Random(seed)
            for _ in range(depth):
                if st.is_terminal():
                    break
                st.apply_action(st.chance_dice().sample(rng) if st.current_player() == CHANCE
                                else rng.choice(list(st.legal_actions())))
            root = ET.fromstring(board_svg(st.sc, st.view(None)))
            cells = {p.get("data-area") for p in root.iter(f"{SVG}path") if "cell" in p.get("class", "")}
            assert cells >= set(st.sc.board.land), "every land area is a territory"
            placed: list[tuple[str, Box]] = []
            for g in root.iter(f"{SVG}g"):
                cls = g.get("class", "")
                rect = g.find(f"{SVG}rect")
                if rect is not None and ("name-plate" in cls or "battalions" in cls):
                    x, y, w, h = (float(rect.get(k, "0")) for k in ("x", "y", "width", "height"))
                    placed.append((cls, (x, y, w, h)))
            names = [c for c, _ in placed if "name-plate" in c]
            assert len(names) == len(st.sc.board.land) + len(st.sc.board.inaccessible), "every area named"
            for i, (what, b) in enumerate(placed):
                assert b[0] >= 0 and b[0] + b[2] <= st.sc.board.width, what
                for other, c in placed[i + 1:]:
                    assert not overlaps(b, c, gap=0), (seed, depth, what, other)
            boxes_seen += len(placed)
    assert boxes_seen > 400
