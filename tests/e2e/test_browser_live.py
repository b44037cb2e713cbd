"""The club pages live in a real browser (issue 16): a page follows the others' moves without reloading and never
loses what its reader is typing; one browser acts as several links at once, each tab as its own; the choices are
words. Screenshots of the pages go to $WARROOM_SCREENSHOTS when it is set (test_browser.snap)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import Browser, Page
from test_browser import POLL, base_url, browser, choices, position, redrawn, snap  # noqa: F401  (the fixtures, shared)

from warroom.rulesets.firestorm.secrets import HIDDEN
from warroom.server.local import call, play_to_a_table

NAMES = {"allies": "Allies", "axis": "Germans"}


def tabletop_campaign(base_url: str) -> tuple[str, dict[str, str], dict[str, object]]:  # noqa: F811
    """A Lorraine campaign at the table: one battle waits for its result while the turn goes on."""
    status, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine", "mode": "tabletop"})
    assert status == 201
    links = {link["label"]: link["secret"] for link in body["links"]}
    return body["id"], links, play_to_a_table(base_url, body["id"], links)


def hide_forecast(base_url: str, cid: str, organiser: str) -> None:  # noqa: F811
    """The organiser hides the forecast from the players before a player's page opens: these tests never read it
    (test_browser_insight.py does), and a Narvik or Norway forecast, even at one rollout a line, plays each line on to
    the end of the game in the server's worker, again at every move."""
    status, switched = call(base_url, "POST", f"/api/campaigns/{cid}/switches", organiser, {"forecast": False})
    assert status == 200 and switched["forecast"] is False, switched


def test_a_half_typed_result_survives_another_browser_acting(browser: Browser, base_url: str) -> None:  # noqa: F811
    cid, links, result = tabletop_campaign(base_url)
    commander = browser.new_context().new_page()
    errors: list[str] = []
    commander.on("pageerror", lambda e: errors.append(str(e)))
    commander.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
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
    snap(commander, "typing.png", full_page=True)
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


def test_choices_read_as_words(browser: Browser, base_url: str) -> None:  # noqa: F811
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "caen", "mode": "tabletop"})
    links = {link["label"]: link["secret"] for link in body["links"]}
    page = browser.new_context().new_page()
    page.goto(f"{base_url}/join/{links['Allies commanders']}")
    console = page.locator("#console").inner_text()
    assert "Operation Tonga: 6th Airborne Division drops on B5 Bréville" in console
    assert "report to act" not in console and "Waiting for the commanders at the table" in console
    page.click("a.briefing")
    assert "What the result does" in page.locator("table caption").inner_text()
    snap(page, "landing-briefing.png", full_page=True)
    general = page  # the same reader, general in another campaign (each campaign has a cookie of its own)
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine"})
    links = {link["label"]: link["secret"] for link in body["links"]}
    _, view = call(base_url, "GET", f"/api/campaigns/{body['id']}/view", links["organiser"])
    general.goto(f"{base_url}/join/{links[NAMES[view['to_act']] + ' general']}")
    shown = choices(general)
    assert shown and all(words.startswith("attack ") or words == "pass / done" for _action, words in shown), shown
    assert not [w for _a, w in shown if w.startswith("arrow ")], "no engine syntax on a button"
    snap(general, "choices.png", full_page=True)
    assert position(general)


def test_a_battle_arrow_is_drawn_by_clicking_two_areas(browser: Browser, base_url: str) -> None:  # noqa: F811
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine"})
    links = {link["label"]: link["secret"] for link in body["links"]}
    cid = body["id"]
    _, view = call(base_url, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
    general = browser.new_context().new_page()
    general.goto(f"{base_url}/join/{links[NAMES[view['to_act']] + ' general']}")
    arrow = next(a for a, _w in choices(general) if a.startswith("arrow "))
    _, frm, to = arrow.split()
    general.hover(f'[data-action="{arrow}"]')  # a choice shows its areas on the map
    assert sorted(general.eval_on_selector_all(".cell.hovered", "cs => cs.map(c => c.dataset.area)")) == \
        sorted([frm, to])
    general.click(f'g.area[data-area="{frm}"] circle')
    assert "now click one of the highlighted areas" in general.locator("#hint").inner_text()
    assert to in general.eval_on_selector_all(".cell.choosable", "cs => cs.map(c => c.dataset.area)")
    general.hover(f'[data-action="{arrow}"]')  # passing over the choices keeps the targets marked
    general.mouse.move(0, 0)
    assert to in general.eval_on_selector_all(".cell.choosable", "cs => cs.map(c => c.dataset.area)")
    snap(general, "arrow-on-the-map.png", full_page=True)
    with redrawn(general):
        general.click(f'g.area[data-area="{to}"] circle')
    _, after = call(base_url, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
    assert after["battle"] is not None and (after["battle"]["from"], after["battle"]["to"]) == (frm, to)


def test_an_undo_confirmed_closes_its_preview(browser: Browser, base_url: str) -> None:  # noqa: F811
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine"})
    links = {link["label"]: link["secret"] for link in body["links"]}
    cid = body["id"]
    _, view = call(base_url, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
    general = links[NAMES[view["to_act"]] + " general"]
    _, mine = call(base_url, "GET", f"/api/campaigns/{cid}/view", general)
    assert call(base_url, "POST", f"/api/campaigns/{cid}/act", general, {"action": mine["legal"][0]})[0] == 200
    boss = browser.new_context().new_page()
    boss.goto(f"{base_url}/join/{links['organiser']}")
    boss.click("#undo button[type=submit]")
    boss.wait_for_selector("#undo-preview:not([hidden])")
    assert "turn 1, the " in boss.locator("#undone").inner_text(), "who did it, in words"
    with redrawn(boss):
        boss.click("#undo-confirm")
    boss.wait_for_selector("#undo-preview", state="hidden")
    _, after = call(base_url, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
    assert after["epoch"] == 1


def test_a_fight_at_sea_is_declared_with_one_field_per_enemy_unit(browser: Browser, base_url: str) -> None:  # noqa: F811
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "norway"})
    links = {link["label"]: link["secret"] for link in body["links"]}
    cid = body["id"]
    rng = random.Random(5)
    for _ in range(800):  # generals keen on the Strategic Game, until a side shares out its dice
        _, view = call(base_url, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
        if view["step"] == "nv_alloc":
            break
        who = links[NAMES[view["to_act"]] + " general"]
        legal = call(base_url, "GET", f"/api/campaigns/{cid}/view", who)[1]["legal"]
        keen = [a for a in legal if a.startswith(("activate", "take", "launch", "sail", "attack", "fight", "stand",
                                                  "dive", "fly"))]
        assert call(base_url, "POST", f"/api/campaigns/{cid}/act", who, {"action": rng.choice(keen or legal)})[0] == 200
    assert view["step"] == "nv_alloc"
    hide_forecast(base_url, cid, links["organiser"])
    page = browser.new_context().new_page()
    page.goto(f"{base_url}/join/{links[NAMES[view['to_act']] + ' general']}")
    assert page.locator("#maps section.map").first.locator("svg.map-strategic").count() == 1, "the sea first"
    fields = page.locator("#allocate-form input[type=number]")
    assert fields.count() >= 1 and page.locator('[data-action^="allocate "]').count() == 0
    left = int(page.get_attribute("#allocate-form", "data-left") or "0")
    before = call(base_url, "GET", f"/api/campaigns/{cid}/log", links["organiser"])[1]["log"]
    fields.first.fill(str(left + 1))  # more dice than the side has on one unit: the browser's own check says so
    assert page.evaluate("document.getElementById('allocate-form').checkValidity()") is False
    if fields.count() >= 2:  # each within its bounds, together too many: the page says so, and sends nothing
        fields.nth(0).fill(str(left))
        fields.nth(1).fill(str(left))
        page.click("#allocate-form button[type=submit]")
        assert f"you have {left} dice to share out, not {2 * left}" in page.locator("#message").inner_text()
    assert call(base_url, "GET", f"/api/campaigns/{cid}/log", links["organiser"])[1]["log"] == before
    fields.first.fill("0")
    if fields.count() >= 2 and left >= 2:  # every die shared out over two units (the rules may give the last
        fields.nth(0).fill(str(left - 1))  # unit its dice by themselves: no error either way)
        fields.nth(1).fill("1")
    else:
        fields.first.fill(str(left))
    snap(page, "fight-at-sea.png", full_page=True)
    with redrawn(page):
        page.click("#allocate-form button[type=submit]")
    page.wait_for_function("!document.querySelector('#allocate-form') || "
                           "document.querySelector('#allocate-form').dataset.left !== " + json.dumps(str(left)),
                           polling=POLL)
    assert page.locator("#message").inner_text() == "", "declared without a refusal"
    after = call(base_url, "GET", f"/api/campaigns/{cid}/log", links["organiser"])[1]["log"]
    assert any(e["action"].startswith("allocate ") or e["action"] == HIDDEN for e in after[len(before):])


def test_a_fleet_lists_its_counters_by_keyboard(browser: Browser, base_url: str) -> None:  # noqa: F811
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "norway"})
    links = {link["label"]: link["secret"] for link in body["links"]}
    page = browser.new_context().new_page()
    page.goto(f"{base_url}/join/{links['organiser']}")
    fleet = page.locator("g.fleet").first
    fleet.focus()
    page.keyboard.press("Enter")
    assert " at " in page.locator("#details h2").inner_text(), "the fleet's side and place"
    assert page.locator("#details p").count() >= 1, "one line per counter"


def narvik_page(browser: Browser, base_url: str, body: dict[str, Any],  # noqa: F811
                size: tuple[int, int] = (1280, 900)) -> tuple[Page, dict[str, str], dict[str, Any]]:
    """The Germans' page of a Narvik campaign just made (`body`, the answer to its creation), its links and the
    moves the page was given."""
    links = {link["label"]: link["secret"] for link in body["links"]}
    hide_forecast(base_url, body["id"], links["organiser"])
    german = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    german.goto(f"{base_url}/join/{links['The Germans player']}")
    return german, links, json.loads(german.locator("#orders-data").text_content() or "null")


def click_hex(page: Page, hex_id: str) -> None:
    """Click a highlighted hex near its top edge, clear of any token in its middle."""
    box = page.locator(f'.narvik .target[data-area="{hex_id}"]').bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.15)


def targets(page: Page) -> list[str]:
    return sorted(page.eval_on_selector_all(".narvik .target", "ts => ts.map(t => t.dataset.area)"))


def last_action(url: str, cid: str, organiser: str) -> str:
    _, log = call(url, "GET", f"/api/campaigns/{cid}/log", organiser)
    return str(log["log"][-1]["action"]) if log["log"] else ""


def test_a_narvik_unit_is_moved_by_clicking_its_stack_then_a_highlighted_hex(browser: Browser, base_url: str  # noqa: F811
                                                                               ) -> None:
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "narvik"})
    german, links, plan = narvik_page(browser, base_url, body)
    here = next(u["hex"] for u in plan["units"] if u["id"] == "ger_138_1")  # Trondheim: by rail or on foot
    stacked = [u for u in plan["units"] if u["hex"] == here]
    assert len(stacked) == 3
    german.click(f'.narvik .stack[data-area="{here}"] rect')
    first = stacked[0]
    reached = sorted({h for w in first["ways"] for h in w["to"]})
    assert german.eval_on_selector("#mover", "s => s.value") == first["id"]
    assert targets(german) == reached
    assert len(german.locator("#ways button").all()) == sum(len(w["to"]) for w in first["ways"])
    assert first["words"] in german.locator("#hint").inner_text()
    german.click(f'.narvik .stack[data-area="{here}"] rect')  # the same stack again: its next unit
    assert german.eval_on_selector("#mover", "s => s.value") in (stacked[1]["id"], stacked[2]["id"])
    german.select_option("#mover", first["id"])  # the list chooses too
    assert targets(german) == reached
    snap(german, "narvik-moves-on-the-map.png")
    both = next(h for h in reached if sum(h in w["to"] for w in first["ways"]) == 2)  # on foot or by rail
    with redrawn(german):  # the same place either way: the plain move goes, nothing to choose
        click_hex(german, both)
    assert last_action(base_url, body["id"], links["organiser"]) == f"move {first['id']} {both}"
    german.wait_for_function("!document.querySelector('.narvik .target')", polling=POLL)  # the move made: no highlight


def test_a_click_on_one_of_your_stacks_in_reach_selects_it_and_moves_nothing(
        browser: Browser, base_url: str) -> None:  # noqa: F811
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "narvik"})
    german, links, plan = narvik_page(browser, base_url, body)
    mover = next(u for u in plan["units"] if u["id"] == "ger_310_1")  # I/310 in Kristiansand reaches Fornebu
    fornebu = [u["id"] for u in plan["units"] if u["hex"] == "1744"]
    assert fornebu and [w["how"] for w in mover["ways"] if "1744" in w["to"]] == ["by rail"]
    german.select_option("#mover", mover["id"])
    assert "1744" in targets(german)
    german.click('.narvik .stack.side-german[data-area="1744"] rect')  # the stack's token: select, never move
    assert german.eval_on_selector("#mover", "s => s.value") == fornebu[0]
    assert last_action(base_url, body["id"], links["organiser"]) == ""
    german.select_option("#mover", mover["id"])
    with redrawn(german):  # beside the token, the hex itself: the move
        click_hex(german, "1744")
    assert last_action(base_url, body["id"], links["organiser"]) == "rail ger_310_1 1744"  # its only way there


def test_a_narvik_move_by_keyboard_keeps_the_focus_on_the_unit_list(browser: Browser, base_url: str) -> None:  # noqa: F811
    _, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "narvik"})
    german, links, plan = narvik_page(browser, base_url, body)
    german.focus("#mover")
    german.keyboard.press("ArrowDown")  # the first unit of the list
    first = plan["units"][0]
    assert german.eval_on_selector("#mover", "s => s.value") == first["id"]
    german.keyboard.press("Tab")
    action = german.evaluate("document.activeElement.dataset.action")
    assert action == f"{first['ways'][0]['prefix']} {first['ways'][0]['to'][0]}"
    with redrawn(german):
        german.keyboard.press("Enter")
    assert last_action(base_url, body["id"], links["organiser"]) == action
    german.wait_for_function("document.activeElement && document.activeElement.id === 'mover'", polling=POLL)


def choice_of_ways(plan: dict[str, Any] | None) -> tuple[dict[str, Any], str, list[str]] | None:
    """A unit, a hex it reaches in more than one way but not by a plain move, and those ways' actions."""
    for u in (plan or {"units": []})["units"]:
        for h in sorted({h for w in u["ways"] for h in w["to"]}):
            ways = [w for w in u["ways"] if h in w["to"]]
            if len(ways) > 1 and all(w["how"] != "move" for w in ways):
                return u, h, [f"{w['prefix']} {h}" for w in ways]
    return None


def test_a_hex_reached_by_truck_and_by_rail_asks_which_and_shows_the_choice_on_a_phone(
        browser: Browser, base_url: str, tmp_path: Path) -> None:  # noqa: F811
    from warroom.core.state import CHANCE
    from warroom.rulesets.narvik import new_game
    from warroom.server.narvik_board import orders

    st, rng = new_game(), random.Random(5)
    while True:  # random play to a German movement phase offering such a choice
        if st.current_player() == CHANCE:
            st.apply_action(st.chance_dice().sample(rng))
            continue
        if st.step == "move" and st.phasing == "german" and choice_of_ways(orders(st, list(st.legal_actions()))):
            break
        st.apply_action(st.random_action(rng))
    save = tmp_path / "narvik.json"
    st.record(5).save(save)
    _, body = call(base_url, "POST", "/api/campaigns/import", body=json.loads(save.read_text()))
    german, links, plan = narvik_page(browser, base_url, body, size=(390, 844))  # a phone: the map below
    found = choice_of_ways(plan)
    assert found is not None
    unit, choice, ways = found
    german.select_option("#mover", unit["id"])
    german.locator(f'.narvik .target[data-area="{choice}"]').scroll_into_view_if_needed()
    click_hex(german, choice)
    assert f"in {len(ways)} ways" in german.locator("#hint").inner_text()
    assert german.eval_on_selector_all("#ways button.picked", "bs => bs.map(b => b.dataset.action)") == ways
    assert german.evaluate("document.activeElement.dataset.action") == ways[0]  # shown and focused, on a phone too
    assert german.evaluate("(() => { const r = document.activeElement.getBoundingClientRect();"  # in sight
                           " return r.top > -1 && r.bottom < window.innerHeight + 1; })()")
    assert last_action(base_url, body["id"], links["organiser"]) != ways[0]
    with redrawn(german):
        german.keyboard.press("Enter")
    assert last_action(base_url, body["id"], links["organiser"]) == ways[0]
