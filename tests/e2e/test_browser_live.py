"""The club pages live in a real browser (issue 16): a page follows the others' moves without reloading and never
loses what its reader is typing; one browser acts as several links at once, each tab as its own; the choices are
words. Screenshots of the pages go to the test's folder."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import Browser
from test_browser import base_url, browser, choices, position, redrawn  # noqa: F401  (the fixtures, shared)

from warroom.server.local import call, play_to_a_table

NAMES = {"allies": "Allies", "axis": "Germans"}


def tabletop_campaign(base_url: str) -> tuple[str, dict[str, str], dict[str, object]]:  # noqa: F811
    """A Lorraine campaign at the table: one battle waits for its result while the turn goes on."""
    status, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine", "mode": "tabletop"})
    assert status == 201
    links = {link["label"]: link["secret"] for link in body["links"]}
    return body["id"], links, play_to_a_table(base_url, body["id"], links)


def test_a_half_typed_result_survives_another_browser_acting(browser: Browser, base_url: str,  # noqa: F811
                                                             tmp_path: Path) -> None:
    cid, links, result = tabletop_campaign(base_url)
    commander = browser.new_context().new_page()
    errors: list[str] = []
    commander.on("pageerror", lambda e: errors.append(str(e)))
    commander.goto(f"{base_url}/join/{links[NAMES[str(result['attacker'])] + ' commanders']}")
    form = f'.result[data-battle="{result["battle"]}"] form.report'
    commander.fill(f"{form} input[name=attacker]", "5")
    commander.fill(f"{form} input[name=defender]", "1")
    commander.focus(f"{form} input[name=defender]")
    _, view = call(base_url, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
    general = browser.new_context().new_page()  # another browser: the general to act
    general.goto(f"{base_url}/join/{links[NAMES[view['to_act']] + ' general']}")
    log_before = commander.locator(".log").inner_text()
    with redrawn(commander), redrawn(general):  # the commander's page follows by itself ...
        general.locator("[data-action]").first.click()
    assert commander.locator(".log").inner_text() != log_before, "... and shows the general's move"
    assert commander.input_value(f"{form} input[name=attacker]") == "5", "the typed result is kept"
    assert commander.input_value(f"{form} input[name=defender]") == "1"
    assert commander.evaluate("document.activeElement.name") == "defender", "and so is the focus"
    assert commander.evaluate("performance.getEntriesByType('navigation').length") == 1, "no reload"
    commander.screenshot(path=str(tmp_path / "typing.png"), full_page=True)
    with redrawn(commander):  # sending it works as before, from the kept form
        commander.click(f"{form} button")
    box = f'.result[data-battle="{result["battle"]}"]'
    assert "attacker 5, defender 1 VP" in commander.locator(f"{box} .pending").inner_text()
    assert not errors


def test_one_browser_acts_as_two_links_in_two_tabs(browser: Browser, base_url: str) -> None:  # noqa: F811
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine"})
    links = {link["label"]: link["secret"] for link in body["links"]}
    cid = body["id"]
    _, view = call(base_url, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
    acting = NAMES[view["to_act"]] + " general"
    context = browser.new_context()  # one browser
    boss = context.new_page()
    boss.goto(f"{base_url}/join/{links['organiser']}")
    general = context.new_page()
    general.goto(f"{base_url}/join/{links[acting]}")
    assert general.locator("#acting-as").inner_text() == acting
    boss.reload()  # the organiser's tab still acts as the organiser, though the browser joined the general last
    assert boss.locator("#acting-as").inner_text() == "organiser" and boss.locator("#organiser").count() == 1
    assert general.locator("nav.roles").inner_text() == "switch to: organiser"
    with redrawn(boss), redrawn(general):  # the general acts in one tab; the organiser's tab follows, as itself
        general.locator("[data-action]").first.click()
    assert boss.locator("#acting-as").inner_text() == "organiser"
    assert boss.locator("[data-action]").count() == 0, "the organiser has no general's choices"
    general.click("nav.roles a")  # one click to act as the other link
    assert general.locator("#acting-as").inner_text() == "organiser"


def test_choices_read_as_words(browser: Browser, base_url: str, tmp_path: Path) -> None:  # noqa: F811
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "caen", "mode": "tabletop"})
    links = {link["label"]: link["secret"] for link in body["links"]}
    page = browser.new_context().new_page()
    page.goto(f"{base_url}/join/{links['Allies commanders']}")
    console = page.locator("#console").inner_text()
    assert "Operation Tonga: 6th Airborne Division drops on B5 Bréville" in console
    assert "report to act" not in console and "Waiting for the commanders at the table" in console
    page.click("a.briefing")
    assert "What the result does" in page.locator("table caption").inner_text()
    page.screenshot(path=str(tmp_path / "landing-briefing.png"), full_page=True)
    general = browser.new_context().new_page()
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine"})
    links = {link["label"]: link["secret"] for link in body["links"]}
    _, view = call(base_url, "GET", f"/api/campaigns/{body['id']}/view", links["organiser"])
    general.goto(f"{base_url}/join/{links[NAMES[view['to_act']] + ' general']}")
    shown = choices(general)
    assert shown and all(words.startswith("attack ") or words == "pass / done" for _action, words in shown), shown
    assert not [w for _a, w in shown if w.startswith("arrow ")], "no engine syntax on a button"
    general.screenshot(path=str(tmp_path / "choices.png"), full_page=True)
    assert position(general)
