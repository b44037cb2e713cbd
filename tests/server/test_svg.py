"""The map and chart SVGs: valid XML, one group per area with its controller, troops, battle arrows, the
Norway Strategic Map's counters, the VP chart, escaping, and nothing secret."""

from __future__ import annotations

import dataclasses
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest

from warroom.ai import make_bot
from warroom.core.state import CHANCE
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.scenarios import load_scenario
from warroom.server.svg import map_svgs, vp_chart_svg, vp_history

SEED = 8675309
SCENARIOS = ("caen", "lorraine", "norway")
NS = {"svg": "http://www.w3.org/2000/svg"}


def play(st: FirestormState, seed: int = SEED, most: int = 10_000,
         until: Callable[[FirestormState], bool] = lambda st: False) -> FirestormState:
    """Seeded random play: at most `most` actions, stopping early at the end or once `until` holds."""
    dice = random.Random(seed)
    bots = {s: make_bot("random", random.Random(seed + i)) for i, s in enumerate(st.sc.sides)}
    for _ in range(most):
        if st.is_terminal() or until(st):
            break
        who = st.current_player()
        st.apply_action(st.chance_dice().sample(dice) if who == CHANCE else bots[who].choose(st, st.legal_actions()))
    return st


def position(scenario: str, stage: str) -> FirestormState:
    st = new_game(load_scenario(scenario))
    if stage == "mid":
        play(st, most=40)
    elif stage == "battle":
        play(st, until=lambda s: s.battle is not None)
        assert st.battle is not None
    return st


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


@pytest.mark.parametrize("stage", ["start", "mid", "battle"])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_land_map_shows_every_area_with_its_controller_and_troops(scenario: str, stage: str) -> None:
    st = position(scenario, stage)
    view = st.view(st.sc.sides[0])
    drawn = map_svgs(st, st.sc.sides[0])
    kinds = [st.sc.maps[mid]["kind"] for mid, _ in drawn]
    assert [mid for mid, _ in drawn] == [m for m in st.sc.maps if st.sc.maps[m]["kind"] == "land"] + \
        [m for m in st.sc.maps if st.sc.maps[m]["kind"] == "strategic"]
    assert kinds == sorted(kinds)  # "land" before "strategic"
    rows = {a["id"]: a for a in view["areas"]}
    for mid, svg in drawn:
        assert str(SEED) not in svg
        root = parse(svg)
        m = st.sc.maps[mid]
        x, y, w, h = (int(v) for v in root.get("viewBox", "").split())
        assert (x, y, w) == (0, 0, m["width"]) and h >= m["height"]
        assert root.get("width") is None and root.get("height") is None
        assert root.find("svg:g[@class='legend']", NS) is not None
        if m["kind"] != "land":
            continue
        groups = {g.get("data-area"): g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-area")}
        assert set(groups) == {aid for aid, a in st.sc.areas.items() if a.map == mid}
        for aid, g in groups.items():
            assert "area" in classes(g)
            disc = g.find("svg:circle", NS)
            assert disc is not None and f"side-{rows[aid]['controller']}" in classes(disc)
            units = [t.get("data-unit") for t in g.findall("svg:g[@data-unit]", NS)]
            assert units == rows[aid]["troops"]
            for t in g.findall("svg:g[@data-unit]", NS):
                tip = t.find("svg:title", NS)
                assert tip is not None and st.sc.troops[t.get("data-unit", "")].name in (tip.text or "")
            assert ("unsupplied" in classes(g)) == (not rows[aid]["supplied"])


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_open_battle_is_an_arrow_on_its_map(scenario: str) -> None:
    st = position(scenario, "battle")
    battle = st.view(None)["battle"]
    home = st.sc.areas[battle["from"]].map
    for mid, svg in map_svgs(st, None):
        arrows = [g for g in parse(svg).iter("{http://www.w3.org/2000/svg}g") if "battle" in classes(g)
                  and g.get("data-from")]
        if mid == home:
            assert [(g.get("data-from"), g.get("data-to")) for g in arrows] == [(battle["from"], battle["to"])]
            assert f"side-{battle['attacker']}" in classes(arrows[0])
        else:
            assert arrows == []
    play(st, until=lambda s: s.battle is None)
    for _, svg in map_svgs(st, None):
        assert not [g for g in parse(svg).iter("{http://www.w3.org/2000/svg}g") if g.get("data-from")]


def test_rivers_are_named_and_fjord_crossings_dashed() -> None:
    caen = new_game(load_scenario("caen"))
    root = parse(map_svgs(caen, None)[0][1])
    rivers = {g.get("data-river") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-river")}
    assert rivers == set(caen.sc.rivers.values())
    narvik = dict(map_svgs(new_game(load_scenario("norway")), None))["narvik"]
    lines = [el for el in parse(narvik).iter("{http://www.w3.org/2000/svg}line")
             if "fjord" in classes(el) and el.get("data-a")]
    assert lines and all("OFOT" in (el.get("data-a"), el.get("data-b")) for el in lines)


@pytest.mark.parametrize("stage", ["start", "mid", "battle"])
def test_the_norway_strategic_map_shows_locations_and_counters(stage: str) -> None:
    st = position("norway", stage)
    strat = st.view(None)["strategic"]
    mid, svg = map_svgs(st, None)[-1]
    assert st.sc.maps[mid]["kind"] == "strategic"
    root = parse(svg)
    groups = {g.get("data-location"): g for g in root.iter("{http://www.w3.org/2000/svg}g")
              if g.get("data-location")}
    assert set(groups) == set(st.sc.strat_areas)
    for loc in strat["locations"]:
        g = groups[loc["id"]]
        assert f"kind-{loc['kind']}" in classes(g)
        assert ("bombed" in classes(g)) == loc["bombed"]
        assert (g.find("svg:g[@class='defence']", NS) is not None) == bool(loc["defence"])
    assert strat["counters"]
    for c in strat["counters"]:
        found = groups[c["location"]].findall(f".//svg:g[@data-counter='{c['id']}']", NS)  # in its side's fleet
        assert len(found) == 1
        cls = classes(found[0])
        assert f"side-{c['side']}" in cls
        assert {"ship", "submarine", "aircraft"} & cls
        assert ("activated" in cls) == c["activated"]
    drawn = {g.get("data-counter") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-counter")}
    assert drawn == {c["id"] for c in strat["counters"]}


def test_activated_counters_and_bombed_ports_are_marked() -> None:
    st = new_game(load_scenario("norway"))
    play(st, until=lambda s: s.navy is not None and bool(s.navy.activated))
    assert st.navy is not None
    st.navy.closed_harbours.add("bergen_harbour")  # a drawing test: any bombed port will do
    svg = map_svgs(st, None)[-1][1]
    root = parse(svg)
    activated = {g.get("data-counter") for g in root.iter("{http://www.w3.org/2000/svg}g")
                 if "activated" in classes(g) and g.get("data-counter")}
    fleets = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "fleet" in classes(g)]
    assert all(("activated" in classes(f)) == any(c.get("data-counter") in activated
                                                  for c in f.iter("{http://www.w3.org/2000/svg}g")) for f in fleets)
    assert activated == set(st.navy.activated)
    bergen = root.find(".//svg:g[@data-location='bergen_harbour']", NS)
    assert bergen is not None and "bombed" in classes(bergen)
    assert bergen.find("svg:g[@class='bombed-mark']", NS) is not None


def test_vp_history_follows_the_turns_and_ends_at_the_final_score() -> None:
    st = new_game(load_scenario("caen"))
    assert vp_history(st) == []
    play(st, until=lambda s: s.turn == 3)
    assert [t for t, _ in vp_history(st)] == [1, 2]
    play(st)
    history = vp_history(st)
    assert [t for t, _ in history] == list(range(1, len(st.sc.turns) + 1))
    assert history[-1][1] == {s: st.total_vp(s) for s in st.sc.sides}


@pytest.mark.parametrize("turns", [0, 1, 3])
def test_the_chart_has_one_line_per_side_with_a_point_per_turn(turns: int) -> None:
    st = new_game(load_scenario("lorraine"))
    play(st, until=lambda s: s.turn > turns or s.is_terminal())
    points = vp_history(st)
    assert len(points) == turns
    root = parse(vp_chart_svg(points, st.sc.side_names))
    lines = list(root.iter("{http://www.w3.org/2000/svg}polyline"))
    assert len(lines) == len(st.sc.sides)
    for side, line in zip(st.sc.side_names, lines, strict=True):
        assert f"side-{side}" in classes(line)
        assert len(line.get("points", "").split()) == turns
    ticks = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "tick" in classes(g)]
    assert any("x-tick" in classes(g) for g in ticks) and any("y-tick" in classes(g) for g in ticks)
    assert root.find("svg:g[@class='legend']", NS) is not None


def test_text_is_escaped() -> None:
    sc = load_scenario("caen")
    area = next(iter(sc.areas.values()))
    troop = next(iter(sc.troops.values()))
    odd = dataclasses.replace(
        sc, side_names={s: f"<{n} & co>" for s, n in sc.side_names.items()},
        areas={**sc.areas, area.id: dataclasses.replace(area, name="<Bayeux & \"Port\">")},
        troops={**sc.troops, troop.id: dataclasses.replace(troop, name="<3rd & 'Div'>")})
    st = play(new_game(odd), most=60)
    for _, svg in map_svgs(st, None):
        root = parse(svg)
        texts = {el.text for el in root.iter("{http://www.w3.org/2000/svg}text")}
        assert '<Bayeux & "Port">' in texts
        assert "<Bayeux" not in svg
    chart = vp_chart_svg([(1, {"allies": 3, "axis": 4})], {"allies": "<A&B>", "axis": "x"})
    assert "<A&B>" in {el.text for el in parse(chart).iter("{http://www.w3.org/2000/svg}text")}
