"""The club server in a real browser (issue 4): Playwright driving Debian's Chromium, headless (`BROWSERS`).

The organiser creates a Caen campaign; the generals and commanders open their links in separate browser
contexts; one battle is fought on the tabletop, reported and confirmed, and the map changes; one battle is
rolled by the General's Wargame; the campaign is exported and imported again. `make test` installs Chromium from
Debian's packages when missing and it may (root with apt-get); otherwise the test is skipped, saying why.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
from fastapi import FastAPI
from playwright.sync_api import Browser, Locator, Page, Playwright, sync_playwright

from warroom.server.local import call, play_to_a_table, running

BROWSERS = ("chromium-headless-shell", "chromium")
"""Debian's Chromium builds, in the order tried. First its headless shell (the package chromium-headless-shell,
built from the same source: the same Blink and V8, without the desktop browser around them; the build Playwright's
own downloads have used for headless runs since 1.49). With it, Chromium's own CPU-seconds in the browser tests
were about half what the whole browser, started headless, took, and the browser tests' whole cost about a third
less. Then the whole browser, where the shell is not to be had. `make test` installs the shell when it is missing,
and the whole browser where the shell cannot be had and there is no Chromium at all (scripts/test-browser.sh)."""


def chromium_path() -> str:
    """The Chromium to drive: the first of BROWSERS installed. The workers of a parallel run never install one
    (they would do it side by side): `make test` does it before the suite starts."""
    path = next((found for found in map(shutil.which, BROWSERS) if found is not None), None)
    if path is None:
        pytest.skip(f"none of Debian's {' or '.join(BROWSERS)} is installed (scripts/test-browser.sh installs one, "
                    "as root with apt-get)")
    return path


def quick_forecasts(app: FastAPI) -> None:
    """Every campaign page starts the forecast by itself (the organiser's always, the others' unless it is hidden)
    and polls it each second until it is done. These tests never read it (test_browser_insight.py does), and at its
    full size, 200 rollouts a line and up to a minute of CPU for each position of a Kampen or Narvik campaign, the
    server's worker played on beside them for nothing: one rollout a line still draws, polls and finishes the panel
    as ever."""
    app.state.insight.sizes["forecast"] = 1


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("server") / "warroom.db"
    with running(f"sqlite:///{db}", prepare=quick_forecasts) as url:
        yield url


LAUNCHED: list[tuple[Playwright, Browser]] = []
"""The one Chromium of this pytest process (of each pytest-xdist worker), once launched."""


def shared_chromium(config: pytest.Config) -> Browser:
    """Chromium, launched the first time a test asks and closed when the session ends: every browser test module
    shares it (each used to launch its own, a few seconds of start-up each); each test still has browser contexts of
    its own, so nothing but the program is shared."""
    if not LAUNCHED:
        path = chromium_path()
        playwright = sync_playwright().start()
        try:
            launched = playwright.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        except BaseException:
            playwright.stop()
            raise

        def close() -> None:
            playwright_, browser_ = LAUNCHED.pop()
            browser_.close()
            playwright_.stop()

        LAUNCHED.append((playwright, launched))
        config.add_cleanup(close)
    return LAUNCHED[0][1]


@pytest.fixture
def browser(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """The shared Chromium. The browser contexts a test opens are closed when it ends: an open campaign page keeps
    its event stream (the server reads the campaign twice a second for it) and any forecast polling going, and the
    pages of earlier tests used to go on doing so until their module ended."""
    shared = shared_chromium(request.config)
    yield shared
    for context in shared.contexts:
        context.close()


def snap(shot: Page | Locator, name: str, full_page: bool = False) -> None:
    """A screenshot for people to look at, into $WARROOM_SCREENSHOTS when it is set (else none is taken): no
    assertion reads it, and encoding a full page's PNG costs Chromium some 0.4 CPU-seconds."""
    folder = os.environ.get("WARROOM_SCREENSHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    if isinstance(shot, Page):
        shot.screenshot(path=str(Path(folder) / name), full_page=full_page)
    else:
        shot.screenshot(path=str(Path(folder) / name))


def links_of(page: Page) -> dict[str, str]:
    rows = page.locator("table tr").all()[1:]
    return {r.locator("td").nth(0).inner_text(): r.locator("td").nth(1).inner_text() for r in rows}


def new_page(browser: Browser, phone: bool = False) -> Page:
    """A page in a browser context of its own (its own cookies: one person's browser)."""
    context = browser.new_context(viewport={"width": 390, "height": 844} if phone else None)
    return context.new_page()


POLL = 50
"""How often, in milliseconds, a wait for a page to change checks it. Playwright's default checks at every
animation frame, which keeps Chromium drawing sixty frames a second for as long as the wait lasts (some 0.1 of a
core, and these tests wait for the server hundreds of times); the same check each 50 ms costs next to nothing."""

SHOWN = ("(() => { const p = document.querySelector('#position span').dataset;"
         " return `${p.seq}/${p.epoch}/${p.waiting}`; })()")
"""The position a campaign page shows (its seq, undo epoch and waiting results), as a JavaScript expression."""


def position(page: Page) -> str:
    """The position a campaign page shows."""
    return str(page.evaluate(SHOWN))


@contextmanager
def redrawn(page: Page, timeout: float = 15_000) -> Iterator[None]:
    """Wait, after the body, until the page shows another position: the page redraws itself, without a reload."""
    before = position(page)
    yield
    page.wait_for_function(f"(before) => {SHOWN} !== before", arg=before, timeout=timeout, polling=POLL)


def caught_up(page: Page, now: str, timeout: float = 15_000) -> None:
    """Wait until the page shows the position `now` (another page's, read after its own move)."""
    page.wait_for_function(f"(now) => {SHOWN} === now", arg=now, timeout=timeout, polling=POLL)


def choices(page: Page) -> list[tuple[str, str]]:
    """(action, words) of every choice button: the words as a reader takes them in, a group's heading first."""
    rows = page.evaluate("""[...document.querySelectorAll('[data-action]')].map(b => {
        const legend = b.closest('fieldset')?.querySelector('legend')?.textContent;
        return [b.dataset.action, (legend ? legend + ' ' : '') + b.textContent]; })""")
    return [(str(a), str(w)) for a, w in rows]


def open_link(browser: Browser, link: str, phone: bool = False) -> Page:
    page = new_page(browser, phone)
    page.goto(link)
    return page


def api_view(base_url: str, cid: str, secret: str) -> dict[str, Any]:
    """A campaign's view as the JSON API gives it to the holder of the link `secret`."""
    request = urllib.request.Request(f"{base_url}/api/campaigns/{cid}/view",
                                     headers={"Authorization": f"Bearer {secret}"})
    with urllib.request.urlopen(request, timeout=10) as r:
        view: dict[str, Any] = json.load(r)
    return view


def hide_forecast(base_url: str, made: Page) -> None:
    """The organiser hides the forecast from the players (the switch on their page), before any player opens their
    link: these tests never read it. Each position's forecast is worked out once however many pages show it, but
    each page showing it polls it and draws it again at every move (five pages in the club campaign). A Kampen om
    Norge forecast, even at one rollout a line (`quick_forecasts`), plays each line on to the game's end with the
    heuristic bots, for every position of the game: in the Kampen games below the server's worker spent more CPU on
    them than the rest of the test did. The organiser's own page still shows it, as ever. `made` is the page that made
    the game, showing its links."""
    secret = links_of(made)["organiser"].rsplit("/", 1)[1]
    cid = (made.locator('a[href$="/links"]').get_attribute("href") or "").split("/")[2]
    status, switched = call(base_url, "POST", f"/api/campaigns/{cid}/switches", secret, {"forecast": False})
    assert status == 200 and switched["forecast"] is False, switched


def owner_of(page: Page, cls: str, area: str) -> bool:
    return bool(page.locator(f'g.area.{cls}[data-area="{area}"]').count())


def test_a_club_campaign_in_the_browser(browser: Browser, base_url: str, tmp_path: Path) -> None:
    organiser = new_page(browser)
    organiser.goto(base_url)
    organiser.select_option("select[name=scenario]", "caen")
    organiser.select_option("select[name=mode]", "mixed")
    organiser.fill("input[name=title]", "Club night")
    organiser.click("button[type=submit]")
    links = links_of(organiser)
    assert set(links) == {"organiser", "Allies general", "Allies commanders", "Germans general",
                          "Germans commanders"}
    hide_forecast(base_url, organiser)  # the organiser's page, open throughout, still works one out at each position
    generals = {side: open_link(browser, links[f"{name} general"], phone=side == "allies")
                for side, name in (("allies", "Allies"), ("axis", "Germans"))}
    commanders = {side: open_link(browser, links[f"{name} commanders"])
                  for side, name in (("allies", "Allies"), ("axis", "Germans"))}
    boss = organiser  # the organiser follows their own link in the browser that made the campaign
    boss.goto(links["organiser"])
    phone = generals["allies"]
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "fits a phone"

    cid = boss.url.split("?")[0].rsplit("/", 1)[1]
    secret = links["organiser"].rsplit("/", 1)[1]

    def status() -> dict[str, Any]:
        return api_view(base_url, cid, secret)

    tabletop_done = gw_done = False
    captured: tuple[str, str, int] | None = None  # (attacker, area, battle number) of the tabletop battle
    reported: set[tuple[int, int]] = set()  # (turn, battle number)
    now = position(boss)  # the campaign's position, as the page that acted last shows it: every page follows it
    for _ in range(300):
        if tabletop_done and gw_done:
            caught_up(boss, now)
            if "General's Wargame" in boss.locator(".log").inner_text():
                break
        view = status()
        if captured is not None and all(b["no"] != captured[2] for b in view["open_battles"]) and (
                view["battle"] is None or view["battle"]["no"] != captured[2]):  # its retreats and advance are done
            caught_up(boss, now)
            assert owner_of(boss, f"side-{captured[0]}", captured[1]), "the map shows the captured area"
            captured, tabletop_done = None, True
        asked = [r for r in view["results"] if (view["turn"], r["battle"]) not in reported]
        if asked:  # the battle went to the table: the attacker's commanders report, the defender's confirm
            result = asked[0]
            no = result["battle"]
            box = f'.result[data-battle="{no}"]'
            reporter, confirmer = commanders[result["attacker"]], commanders[result["defender"]]
            caught_up(reporter, now)
            reporter.fill(f"{box} form.report input[name=attacker]", "5")
            reporter.fill(f"{box} form.report input[name=defender]", "1")
            with redrawn(reporter):
                reporter.click(f"{box} form.report button")
            assert reporter.locator(f"{box} .pending").count()
            caught_up(confirmer, position(reporter))
            with redrawn(confirmer):
                confirmer.click(f"{box} .confirm")
            now = position(confirmer)
            reported.add((view["turn"], no))
            captured = (result["attacker"], result["to"], no)
            continue
        who = view["to_act"]
        page = generals[who]
        caught_up(page, now)
        actions = [a for a, _words in choices(page)]
        assert actions, (view["step"], who, page.locator("#console").inner_text())
        if "mode tabletop" in actions and not tabletop_done and captured is None:
            choice = "mode tabletop"
        elif "mode gw" in actions and tabletop_done:
            choice, gw_done = "mode gw", True
        elif "pass" in actions:
            choice = "pass"
        else:
            choice = str(actions[0])
        with redrawn(page):  # the page redraws itself once the server has applied the action
            page.click(f'[data-action="{choice}"]')
        now = position(page)
    assert tabletop_done and gw_done
    assert "General's Wargame" in boss.locator(".log").inner_text()

    with boss.expect_download() as download:
        boss.click("#export")
    saved = tmp_path / "campaign.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text())["seed"] == 0  # the real seed would tell the future dice
    importer = boss.context.new_page()  # the organiser imports the save in another tab of their browser
    importer.goto(base_url)
    importer.set_input_files("input[name=save]", str(saved))
    importer.click("form[action='/import'] button")
    copy = importer  # and follows the copy's organiser link there (each campaign has a cookie of its own)
    copy.goto(links_of(importer)["organiser"])

    def state_line(page: Page) -> list[str]:
        return [line for line in page.locator("header").inner_text().splitlines() if "Turn" in line or "VP" in line]

    assert state_line(copy) == state_line(boss)  # the same turn, phase and VP
    assert copy.locator("g.area").count() == boss.locator("g.area").count()


def test_a_page_follows_the_other_sides_moves_by_itself(browser: Browser, base_url: str) -> None:
    # made through the API: making a campaign in the browser is the club campaign's test; this one is the generals'
    status, made = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine"})
    assert status == 201
    secrets = {link["label"]: link["secret"] for link in made["links"]}
    watchers = {}
    for side, name in (("allies", "Allies"), ("axis", "Germans")):
        context = browser.new_context()  # following switched on, as for a player
        watchers[side] = context.new_page()
        watchers[side].goto(f"{base_url}/join/{secrets[f'{name} general']}")
    acting = next(side for side, page in watchers.items() if page.locator("[data-action]").count())
    waiting = watchers["axis" if acting == "allies" else "allies"]
    before = waiting.locator("header").inner_text()
    for _ in range(20):  # the acting general plays until the other side's turn comes
        page = watchers[acting]
        if not page.locator("[data-action]").count():
            break
        with redrawn(page):
            page.locator("[data-action]").first.click()
    waiting.wait_for_function(f"document.querySelector('header').innerText !== {json.dumps(before)}"
                              " || document.querySelectorAll('[data-action]').length > 0", timeout=15_000,
                              polling=POLL)


def test_a_reported_result_reaches_the_other_commanders_page_by_itself(browser: Browser, base_url: str) -> None:
    status, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine", "mode": "tabletop"})
    assert status == 201
    cid = body["id"]
    links = {link["label"]: link["secret"] for link in body["links"]}
    result = play_to_a_table(base_url, cid, links)
    names = {"allies": "Allies", "axis": "Germans"}
    context = browser.new_context()  # following switched on, as for a player
    confirmer = context.new_page()
    confirmer.goto(f"{base_url}/join/{links[names[result['defender']] + ' commanders']}")
    box = f'.result[data-battle="{result["battle"]}"]'
    assert confirmer.locator(f"{box} form.report").count() and not confirmer.locator(f"{box} .confirm").count()
    reporter = links[names[result["attacker"]] + " commanders"]
    status, _ = call(base_url, "POST", f"/api/campaigns/{cid}/report", reporter,
                     {"battle": result["battle"], "attacker_vp": 4, "defender_vp": 2})
    assert status == 200
    confirmer.wait_for_selector(f"{box} .confirm", timeout=15_000)  # no reload by the test
    status, before = call(base_url, "GET", f"/api/campaigns/{cid}/view", reporter)
    assert status == 200
    confirmer.click(f"{box} .confirm")
    # the confirmation reloads the page, and so may the event it sends: wait for the result, not for one reload
    deadline = time.monotonic() + 15
    while call(base_url, "GET", f"/api/campaigns/{cid}/view", reporter)[1]["seq"] == before["seq"]:
        assert time.monotonic() < deadline, "the confirmation never reached the campaign"
        time.sleep(0.2)
    confirmer.wait_for_selector(f"{box} .confirm", state="detached", timeout=15_000)


def test_the_organiser_decides_undoes_and_manages_links_in_the_browser(browser: Browser, base_url: str) -> None:
    """Issue 11: the Decide form asks for the result and a confirmation; the undo preview lists the waiting
    result it would discard; the links page revokes and reissues a link."""
    status, body = call(base_url, "POST", "/api/campaigns", None, {"scenario": "lorraine", "mode": "tabletop"})
    assert status == 201
    cid = body["id"]
    links = {link["label"]: link["secret"] for link in body["links"]}
    names = {"allies": "Allies", "axis": "Germans"}
    first = play_to_a_table(base_url, cid, links)
    status, _ = call(base_url, "POST", f"/api/campaigns/{cid}/report", links[names[first["attacker"]] + " commanders"],
                     {"battle": first["battle"], "attacker_vp": 6, "defender_vp": 1})
    assert status == 200
    boss = open_link(browser, f"{base_url}/join/{links['organiser']}")
    # the undo preview names the waiting 6-1 that an undo back past its battle's trip to the table discards
    for count in range(1, 30):
        boss.fill("#undo input[name=count]", str(count))
        boss.click("#undo button[type=submit]")
        boss.wait_for_selector("#undo-preview:not([hidden])")
        if boss.locator("#undo-discarded:not([hidden])").count():
            break
    discarded = boss.locator("#undo-discarded li").all_inner_texts()
    assert len(discarded) == 1 and "attacker 6, defender 1 VP" in discarded[0] and f"Battle {first['battle']}" in \
        discarded[0]
    boss.reload()
    # deciding: nothing is settled by one click
    box = f'.result[data-battle="{first["battle"]}"]'
    boss.fill(f"{box} form.decide input[name=attacker]", "2")
    boss.fill(f"{box} form.decide input[name=defender]", "5")
    boss.click(f"{box} form.decide button[type=submit]")
    question = boss.locator(f"{box} .decide-text").inner_text()
    assert "attacker 2, defender 5 VP" in question
    _, view = call(base_url, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
    assert any(r["battle"] == first["battle"] for r in view["results"])  # not yet
    with redrawn(boss):
        boss.click(f"{box} .decide-yes")
    _, log = call(base_url, "GET", f"/api/campaigns/{cid}/log", links["organiser"])
    assert f"report {first['battle']} 2 5" in [e["action"] for e in log["log"]]
    # the links page: revoke the Germans commanders' link, then issue them a new one
    boss.click("#manage-links")
    boss.wait_for_selector("#links")
    assert links["Germans commanders"] not in boss.content()
    boss.on("dialog", lambda dialog: dialog.accept())
    with boss.expect_navigation():
        boss.click('tr:has-text("Germans commanders") button.revoke')
    assert call(base_url, "GET", f"/api/campaigns/{cid}/view", links["Germans commanders"])[0] == 404
    boss.select_option("#reissue select[name=seat]", "commander|axis")
    boss.click("#reissue button[type=submit]")
    boss.wait_for_selector("#new-link:not([hidden])")
    new_link = boss.locator("#new-link-url").inner_text()
    assert new_link.startswith(f"{base_url}/join/")
    status, mine = call(base_url, "GET", f"/api/campaigns/{cid}/view", new_link.rsplit("/", 1)[1])
    assert status == 200 and mine["you"] == {"role": "commander", "side": "axis"}
    boss.click('tr:has-text("organiser") button.revoke')  # the last organiser link stays
    boss.wait_for_function("document.getElementById('message').textContent.length > 0", polling=POLL)
    assert "only organiser link" in boss.locator("#message").inner_text()


KAMPEN_PRIORITY = ("attack ", "fight ", "play ", "exchange ", "place ", "retreat ", "a ", "move ")
"""Which button a player presses first in the Kampen om Norge browser game: into battle, then cards."""


def kampen_choice(page: Page) -> str:
    """The text of the action the player presses: the first of its buttons (or list entries) by priority; 'done'
    only when nothing else is offered."""
    words = [w for _action, w in choices(page)]
    for prefix in KAMPEN_PRIORITY:
        hit = next((w for w in words if w.startswith(prefix)), None)
        if hit is not None:
            return hit
    return words[0]


def press(page: Page, words: str) -> None:
    """Press the choice button with these words (a group's heading and the button's own)."""
    action = next(a for a, w in choices(page) if w == words)
    with redrawn(page):
        page.locator(f'[data-action="{action}"]').first.click()


def test_a_three_player_kampen_game_in_three_browsers(browser: Browser, base_url: str) -> None:
    """Germany, Norway and the Allies each play from their own browser: cards are played, a battle is fought,
    and Germany's round ends and Norway's begins; no page ever shows another player's hand."""
    organiser = new_page(browser)
    organiser.goto(base_url)
    form = organiser.locator('section.new-game[data-scenario="kampen"] form')
    form.locator("select[name=players]").select_option("3")
    form.locator("input[name=title]").fill("Tuesday game")
    with organiser.expect_navigation():
        form.locator("button[type=submit]").click()
    links = links_of(organiser)
    assert set(links) == {"organiser", "Germany player", "Norway player", "The Allies player"}
    hide_forecast(base_url, organiser)
    players = {c: open_link(browser, links[f"{name} player"])
               for c, name in (("germany", "Germany"), ("norway", "Norway"), ("allies", "The Allies"))}
    for country, page in players.items():
        hand = page.locator(f'section.hand[data-country="{country}"] .card')
        assert hand.count() == (5 if country == "germany" else 3), "each player sees their own hand"
        assert page.locator("section.hand").count() == 1, "and no one else's"
    cid = players["germany"].url.split("?")[0].rsplit("/", 1)[1]
    secret = links["organiser"].rsplit("/", 1)[1]

    def status() -> dict[str, Any]:
        return api_view(base_url, cid, secret)

    played = fought = False
    now = position(players["germany"])
    for _ in range(400):
        view = status()
        if view["round"] >= 2 and played and fought:
            break
        page = players[view["to_act"]]
        caught_up(page, now)  # the page follows the others' moves by itself, with no reload
        words = kampen_choice(page)
        played = played or words.startswith(("play ", "exchange "))
        press(page, words)
        now = position(page)
        fought = fought or "Battle of " in page.locator(".log").inner_text()
    assert played and fought and status()["round"] >= 2, "cards, a battle and a round's end"
    # the organiser opens their link in the browser that made the game once it is played (what it shows then is
    # checked, not its following the game: the players' pages show that, and their every redrawing cost Chromium)
    boss = organiser
    boss.goto(links["organiser"])
    log = boss.locator(".log").inner_text()
    assert "--- Norway's round ---" in log and "Battle of " in log
    assert "(dice)" in boss.locator("#battles").inner_text(), "the battles, listed from the rules' typed events"
    assert boss.locator("section.hand").count() == 0, "the organiser sees no hand"
    for country, page in players.items():
        page.reload()
        assert page.locator("section.hand").count() == 1
        assert page.locator(f'section.hand[data-country="{country}"]').count() == 1


def test_a_kampen_hot_seat_hides_the_last_players_hand_until_the_next_takes_over(browser: Browser,
                                                                                  base_url: str) -> None:
    organiser = new_page(browser)
    organiser.goto(base_url)
    form = organiser.locator('section.new-game[data-scenario="kampen"] form')
    form.locator("input[name=hotseat]").check()
    with organiser.expect_navigation():
        form.locator("button[type=submit]").click()
    links = links_of(organiser)
    assert set(links) == {"organiser", "Germany player", "Norway and the Allies player", "every side (hot-seat)"}
    hide_forecast(base_url, organiser)
    screen = open_link(browser, links["every side (hot-seat)"])
    assert "Hand the screen to Germany" in screen.locator("#handover").inner_text()
    assert screen.locator("section.hand").count() == 0 and screen.locator("[data-action]").count() == 0
    with screen.expect_navigation():
        screen.click("#take-over")
    assert screen.locator('section.hand[data-country="germany"] .card').count() == 5
    for _ in range(60):  # Germany passes through its round
        if screen.locator("#handover").count():
            break
        words = [w for _action, w in choices(screen)]
        press(screen, "done" if "done" in words else words[0])
    handover = screen.locator("#handover").inner_text()
    assert "Hand the screen to Norway" in handover
    assert screen.locator("section.hand").count() == 0, "Germany's hand is put away"
    with screen.expect_navigation():
        screen.click("#take-over")
    shown = {h.get_attribute("data-country") for h in screen.locator("section.hand").all()}
    assert shown == {"norway", "allies"}, "with two players, Norway's player holds the Allies' cards too"
