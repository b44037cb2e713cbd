"""The advisor panel, the forecast ("what result do we need?") and the analysis graph in a real browser
(Playwright driving Debian's Chromium). Each is worked out by the server's background worker while the page polls;
a screenshot of each is taken into `WARROOM_SCREENSHOTS` when it is set, for people to look at (test_browser.snap)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from fastapi import FastAPI
from playwright.sync_api import Browser, Page, expect
from test_browser import browser, open_link, snap  # noqa: F401  (the browser fixture, shared)

from warroom.server.local import call, running
from warroom.sim.runner import play_one

SMALL = {"advice": 32, "forecast": 4, "analysis": 2}
"""The jobs' sizes here: what is tested is that each panel is worked out in the background, polled and drawn (the
plans best first, the needs table, the graph), not how sure its numbers are, which tests/unit and tests/server
check. Each is a few rollouts: advice one round of 32 rollouts a plan (every plan still judged, at least two
shown), the forecast 4 a line, the analysis 2 a position (the least an analysis takes, and what the server gives a
long game's positions). At 96, 24 and 4 the workers took some 30 of this module's 70 CPU-seconds."""


def small(app: FastAPI) -> None:
    app.state.insight.sizes = dict(SMALL)
    app.state.insight.nice = 0  # beside the suite's other workers a niced worker may barely run (CI: 5 rollouts/s)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("insight") / "warroom.db"
    with running(f"sqlite:///{db}", prepare=small) as url:
        yield url


def join(browser: Browser, base_url: str, secret: str) -> Page:  # noqa: F811
    page = open_link(browser, f"{base_url}/join/{secret}")
    page.set_viewport_size({"width": 1280, "height": 1000})
    return page


def test_the_advisor_panel(browser: Browser, base_url: str) -> None:  # noqa: F811
    status, made = call(base_url, "POST", "/api/campaigns",
                        body={"scenario": "lorraine", "bots": {"axis": "heuristic"}})
    assert status == 201
    links = {link["label"]: link["secret"] for link in made["links"]}
    # the forecast, which this test does not read (the next one does), hidden: the worker works out the advice alone
    status, _ = call(base_url, "POST", f"/api/campaigns/{made['id']}/switches", links["organiser"],
                     {"forecast": False})
    assert status == 200
    page = join(browser, base_url, links["Allies general"])
    panel = page.locator("#advisor")
    expect(panel).to_contain_text("Plan advisor")
    panel.locator(".insight-start").click()
    expect(panel.locator('[data-status="done"]')).to_be_visible(timeout=120_000)
    expect(panel.locator(".plan.best")).to_contain_text("1.")
    assert panel.locator(".plan").count() >= 2
    snap(panel, "advisor.png")
    germans = join(browser, base_url, links["Germans general"])
    expect(germans.locator("#advisor")).to_have_count(0)  # not their decision: no panel


def test_the_forecast_says_what_result_is_needed(browser: Browser, base_url: str) -> None:  # noqa: F811
    status, made = call(base_url, "POST", "/api/campaigns", body={"scenario": "caen", "mode": "tabletop",
                                                                  "parallel": False})
    assert status == 201
    links = {link["label"]: link["secret"] for link in made["links"]}
    cid = made["id"]
    for _ in range(60):  # the generals play on; the organiser settles the D-Day rolls asked of the table
        _, view = call(base_url, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
        if any(r["battle"] == 0 and "attack" in r["title"] for r in view["results"]):
            break
        for label in ("Allies general", "Germans general"):
            _, mine = call(base_url, "GET", f"/api/campaigns/{cid}/view", links[label])
            if mine["legal"]:
                call(base_url, "POST", f"/api/campaigns/{cid}/act", links[label], {"action": mine["legal"][0]})
                break
        else:
            call(base_url, "POST", f"/api/campaigns/{cid}/decide", links["organiser"],
                 {"attacker_vp": 4, "defender_vp": 2})
    page = join(browser, base_url, links["Allies commanders"])
    panel = page.locator("#forecast")
    expect(panel.locator('[data-status="done"]')).to_be_visible(timeout=120_000)
    expect(panel).to_contain_text("What result do we need?")
    expect(panel.locator("table.needs tr")).not_to_have_count(0)
    snap(panel, "forecast.png")


def test_the_analysis_graph(browser: Browser, base_url: str, tmp_path: Path) -> None:  # noqa: F811
    game = play_one("lorraine", 2, {"allies": "heuristic", "axis": "heuristic"})
    save = tmp_path / "game.json"
    game.record(2).save(save)
    status, made = call(base_url, "POST", "/api/campaigns/import", body=json.loads(save.read_text()))
    assert status == 201, made
    links = {link["label"]: link["secret"] for link in made["links"]}
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    joining = context.request.get(f"{base_url}/join/{links['Allies general']}", max_redirects=0)
    assert joining.status == 303  # the link's cookie, without drawing the campaign page it leads to
    page = context.new_page()
    page.goto(f"{base_url}/c/{made['id']}/analysis")
    expect(page.locator('#analysis[data-status="done"]')).to_be_visible(timeout=120_000)
    expect(page.locator("svg.win-graph")).to_be_visible()
    assert page.locator("svg.win-graph polyline").count() == 1
    snap(page, "analysis.png", full_page=True)
