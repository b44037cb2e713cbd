"""Every page type of the club server, in Chromium at desktop and phone sizes (issue 16): an automated accessibility
check (axe-core) with no serious or critical violation, nothing scrolling sideways on a phone but the maps, a
decision made with the keyboard alone, and a screenshot of each into $WARROOM_SCREENSHOTS when it is set."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("axe_playwright_python")
from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize
from test_browser import browser, quick_forecasts, redrawn  # noqa: F401  (the browser fixture, shared)

from warroom.server.local import call, play_to_a_table, running
from warroom.sim.runner import play_one

SIZES: dict[str, ViewportSize] = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
NAMES = {"allies": "Allies", "axis": "Germans"}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("pages") / "warroom.db"
    with running(f"sqlite:///{db}", prepare=quick_forecasts) as url:
        yield url


@pytest.fixture(scope="module")
def pages(base_url: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    """Each page type: (the link that signs its browser in, or '', the page's address)."""
    out: dict[str, tuple[str, str]] = {"start": ("", "/"), "not found": ("", "/c/0123456789abcdef/battle")}
    _, caen = call(base_url, "POST", "/api/campaigns", None, {"scenario": "caen", "mode": "tabletop"})
    caen_links = {link["label"]: link["secret"] for link in caen["links"]}
    out["caen landing (commanders)"] = (caen_links["Allies commanders"], f"/c/{caen['id']}")
    out["landing briefing"] = (caen_links["Allies commanders"], f"/c/{caen['id']}/battle")
    _, lorraine = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine", "mode": "tabletop"})
    links = {link["label"]: link["secret"] for link in lorraine["links"]}
    result = play_to_a_table(base_url, lorraine["id"], links)
    _, view = call(base_url, "GET", f"/api/campaigns/{lorraine['id']}/view", links["organiser"])
    out["lorraine general (choices)"] = (links[NAMES[view["to_act"]] + " general"], f"/c/{lorraine['id']}")
    out["lorraine commanders (result form)"] = (links[NAMES[result["attacker"]] + " commanders"],
                                                f"/c/{lorraine['id']}")
    out["lorraine organiser"] = (links["organiser"], f"/c/{lorraine['id']}")
    out["battle briefing"] = (links["organiser"], f"/c/{lorraine['id']}/battle?no={result['battle']}")
    out["links page"] = (links["organiser"], f"/c/{lorraine['id']}/links")
    out["organiser home"] = (links["organiser"], "/organise")
    _, norway = call(base_url, "POST", "/api/campaigns", None, {"scenario": "norway"})
    norway_links = {link["label"]: link["secret"] for link in norway["links"]}
    _, view = call(base_url, "GET", f"/api/campaigns/{norway['id']}/view", norway_links["organiser"])
    out["norway strategic game"] = (norway_links[NAMES[view["to_act"]] + " general"], f"/c/{norway['id']}")
    _, kampen = call(base_url, "POST", "/api/campaigns", None, {"scenario": "kampen", "params": {"seats": 3}})
    kampen_links = {link["label"]: link["secret"] for link in kampen["links"]}
    out["kampen player"] = (kampen_links["Germany player"], f"/c/{kampen['id']}")
    _, narvik = call(base_url, "POST", "/api/campaigns", None, {"scenario": "narvik"})
    narvik_links = {link["label"]: link["secret"] for link in narvik["links"]}
    out["narvik player"] = (narvik_links["The Germans player"], f"/c/{narvik['id']}")
    game = play_one("lorraine", 2, {"allies": "heuristic", "axis": "heuristic"})
    save = tmp_path_factory.mktemp("finished") / "game.json"
    game.record(2).save(save)
    _, finished = call(base_url, "POST", "/api/campaigns/import", body=json.loads(save.read_text()))
    finished_links = {link["label"]: link["secret"] for link in finished["links"]}
    out["finished campaign"] = (finished_links["organiser"], f"/c/{finished['id']}")
    out["after-action report"] = (finished_links["organiser"], f"/c/{finished['id']}/report?turn=2")
    return out


def shots() -> Path | None:
    """Where the screenshots go: $WARROOM_SCREENSHOTS, for people to look at; None when it is not set. No assertion
    reads them, and the thirty-two full-page screenshots that used to go to the test's own folder, where nobody
    looked, cost Chromium some 13 CPU-seconds of PNG encoding."""
    folder = os.environ.get("WARROOM_SCREENSHOTS")
    if not folder:
        return None
    Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder)


def serious(results: Any) -> list[str]:
    """The serious and critical violations axe found, each with the elements at fault."""
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
            for v in results["violations"] if v["impact"] in ("serious", "critical")]


def axe_check(page: Page) -> Any:
    """axe-core's results for the page as it is laid out now, run as `Axe.run` runs it, less the reading of axe's
    half-megabyte script into the page, which `Axe.run` does each time and `load_axe` does once a page."""
    return page.evaluate("options => axe.run(options)", DEFAULT_OPTIONS)


def load_axe(page: Page) -> None:
    page.evaluate(Axe().axe_script)


def sign_in(context: BrowserContext, base_url: str, secret: str) -> None:
    """Give the browser the link's cookie, as opening the link does, without drawing the page the link leads to:
    the page under test is loaded next."""
    answer = context.request.get(f"{base_url}/join/{secret}", max_redirects=0)
    assert answer.status == 303, f"joining answered {answer.status}"


def test_every_page_type_passes_axe_and_fits(browser: Browser, base_url: str,  # noqa: F811
                                             pages: dict[str, tuple[str, str]]) -> None:
    """Each page type at each size (SIZES): axe finds nothing serious, a screenshot is taken (when asked for:
    `shots`), and on a phone nothing scrolls sideways. Each page is loaded once, at the desktop size, and then
    narrowed to the phone's: the pages lay themselves out by CSS alone (no script reads the window's size), so the
    narrowed page is the one a phone loads, and axe-core, read into the page once, checks it again there. One browser
    serves every page type, its cookies cleared before each (so it holds the one link the page is seen by, as a new
    browser would): each new browser context cost Chromium a few CPU-seconds, and this test used to open thirty."""
    found: dict[str, list[str]] = {}
    folder = shots()
    context = browser.new_context(viewport=SIZES["desktop"])
    page = context.new_page()
    for name, (secret, path) in pages.items():
        context.clear_cookies()
        if secret:
            sign_in(context, base_url, secret)
        page.set_viewport_size(SIZES["desktop"])
        page.goto(f"{base_url}{path}")
        page.wait_for_load_state("networkidle")
        load_axe(page)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            assert page.evaluate("window.innerWidth") == viewport["width"], (name, size)
            problems = serious(axe_check(page))
            if problems:
                found[f"{name} ({size})"] = problems
            if size == "phone":  # nothing scrolls sideways but the maps in their own boxes
                wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert wide <= 1, (name, f"the page is {wide} px wider than the phone")
            if folder is not None:
                page.screenshot(path=str(folder / f"{name.replace(' ', '-')}-{size}.png"), full_page=True)
    assert not found, json.dumps(found, indent=1)


def test_a_decision_with_the_keyboard_alone(browser: Browser, base_url: str) -> None:  # noqa: F811
    _, made = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine"})
    links = {link["label"]: link["secret"] for link in made["links"]}
    _, view = call(base_url, "GET", f"/api/campaigns/{made['id']}/view", links["organiser"])
    page = browser.new_context().new_page()
    page.goto(f"{base_url}/join/{links[NAMES[view['to_act']] + ' general']}")
    for _ in range(80):  # Tab until a choice has the focus
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.dataset.action"):
            break
    action = page.evaluate("document.activeElement.dataset.action")
    assert action, "a choice is reachable by Tab"
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none", "and shows its focus"
    with redrawn(page):
        page.keyboard.press("Enter")
    _, log = call(base_url, "GET", f"/api/campaigns/{made['id']}/log", links["organiser"])
    assert action in [e["action"] for e in log["log"]]


def test_the_after_action_report_gives_a_png(browser: Browser, base_url: str,  # noqa: F811
                                            pages: dict[str, tuple[str, str]], tmp_path: Path) -> None:
    secret, path = pages["after-action report"]
    context = browser.new_context()
    sign_in(context, base_url, secret)
    page = context.new_page()
    page.goto(f"{base_url}{path}")
    assert "after-action report, turn 2" in page.input_value("#post")
    with page.expect_download() as download:
        page.click("button.png")
    saved = tmp_path / "map.png"
    download.value.save_as(saved)
    assert saved.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and saved.stat().st_size > 20_000, "a real picture"
    # the page's own screenshots, at both sizes, are test_every_page_type_passes_axe_and_fits's
