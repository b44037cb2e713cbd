"""The club pages in the players' words (issue 16): several links in one browser, the organiser's home, choices and
undo previews in words, the D-Day landing's briefing, and the pages' own files."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support import auth, browser_on, client, new_campaign
from test_organiser_tools import play_to_a_table

from warroom.scenarios import load_scenario
from warroom.server.web import MAX_HELD, cookie_name, link_tag, templates


@pytest.fixture()
def url(database_url: str) -> str:
    """Pages read the same whatever the database: SQLite only (tests/server/conftest.py)."""
    return database_url


def joined(c: TestClient, *secrets: str) -> None:
    for secret in secrets:
        assert c.get(f"/join/{secret}", follow_redirects=False).status_code == 303


def acting_as(html: str) -> str:
    found = re.search(r'<strong id="acting-as">([^<]*)</strong>', html)
    assert found is not None
    return found.group(1)


def test_one_browser_holds_several_links_and_each_page_acts_as_its_own(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine")
    browser = browser_on(c)
    joined(browser, links["organiser"], links["Allies general"])
    held = browser.cookies.get(cookie_name(cid)) or ""
    assert held.split(".") == [links["organiser"], links["Allies general"]], "both links are kept, latest last"
    latest = browser.get(f"/c/{cid}").text
    assert acting_as(latest) == "Allies general" and 'id="organiser"' not in latest
    boss = browser.get(f"/c/{cid}?as={link_tag(links['organiser'])}").text
    assert acting_as(boss) == "organiser" and 'id="organiser"' in boss
    assert f'href="/c/{cid}?as={link_tag(links["Allies general"])}">Allies general</a>' in boss, "one click back"
    assert f"/links?as={link_tag(links['organiser'])}" in boss, "the page's own links keep acting as it"
    assert not [s for s in links.values() if s in boss], "no secret on the page"
    # the API acts as the link the page names, whatever the browser joined last
    view = browser.get(f"/api/campaigns/{cid}/view?as={link_tag(links['organiser'])}").json()
    assert view["you"] == {"role": "organiser", "side": ""}
    refused = browser.post(f"/api/campaigns/{cid}/act?as={link_tag(links['organiser'])}", json={"action": "pass"})
    assert refused.status_code == 403
    unknown = browser.get(f"/c/{cid}?as=0123456789ab")
    assert unknown.status_code == 401 and "does not hold the link" in unknown.text
    # joining a link again makes it the latest, without a copy
    joined(browser, links["organiser"])
    assert (browser.cookies.get(cookie_name(cid)) or "").split(".") == [links["Allies general"], links["organiser"]]


def test_a_browser_keeps_at_most_its_latest_links(url: str) -> None:
    c = client(url)
    browser = browser_on(c)
    cid, links = new_campaign(c, scenario="lorraine")
    extra = [c.post(f"/api/campaigns/{cid}/tokens", headers=auth(links["organiser"]),
                    json={"role": "general", "side": "allies"}).json()["secret"] for _ in range(MAX_HELD)]
    joined(browser, links["organiser"], *extra)
    held = (browser.cookies.get(cookie_name(cid)) or "").split(".")
    assert held == extra[-MAX_HELD:], "the oldest link is let go first"
    assert browser.get(f"/c/{cid}?as={link_tag(links['organiser'])}").status_code == 401


def test_the_organisers_home_lists_the_campaigns_this_browser_holds(url: str) -> None:
    c = client(url)
    first, links1 = new_campaign(c, scenario="lorraine", mode="tabletop", title="Tuesday Lorraine")
    second, links2 = new_campaign(c, scenario="caen", mode="tabletop", title="Club Caen")
    browser = browser_on(c)
    assert "None yet" in browser.get("/organise").text
    joined(browser, links1["organiser"], links1["Germans general"], links2["organiser"])
    play_to_a_table(c, first, links1)
    home = browser.get("/organise").text
    cards = re.findall(r'<section class="campaign-card" data-campaign="([0-9a-f]+)">', home)
    assert sorted(cards) == sorted([first, second])
    assert "Tuesday Lorraine" in home and "Club Caen" in home
    assert "Operation Tonga" in home, "Caen's opening says what is asked"
    assert "At the table: Battle 1" in home, "the battles at the table"
    assert f'href="/c/{first}?as={link_tag(links1["Germans general"])}">Germans general</a>' in home
    assert not [s for s in (*links1.values(), *links2.values()) if s in home]


def test_choices_are_words_and_the_engine_text_stays_as_data(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine")
    view = c.get(f"/api/campaigns/{cid}/view", headers=auth(links["organiser"])).json()
    side = {"allies": "Allies", "axis": "Germans"}[view["to_act"]]
    general = browser_on(c)
    joined(general, links[f"{side} general"])
    html = general.get(f"/c/{cid}").text
    buttons = re.findall(r'<button type="button" data-action="(arrow [A-F]\d [A-F]\d)" title="[^"]*">([^<]*)</button>',
                         html)
    assert buttons, "the arrows are offered"
    for action, words in buttons:
        frm, to = action.split()[1:]
        assert words.startswith(f"attack {to} ") and f" from {frm} " in words, (action, words)
    assert "have the initiative" in html and "choose where to attack" in html
    assert "Your decision" in html


def test_the_undo_preview_says_what_is_undone_in_words(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine")
    view = c.get(f"/api/campaigns/{cid}/view", headers=auth(links["organiser"])).json()
    side = {"allies": "Allies", "axis": "Germans"}[view["to_act"]]
    general_view = c.get(f"/api/campaigns/{cid}/view", headers=auth(links[f"{side} general"])).json()
    arrow = next(a for a in general_view["legal"] if a.startswith("arrow"))
    assert c.post(f"/api/campaigns/{cid}/act", headers=auth(links[f"{side} general"]),
                  json={"action": arrow}).status_code == 200
    preview = c.get(f"/api/campaigns/{cid}/undo?count=1", headers=auth(links["organiser"])).json()
    first = preview["undone"][0]
    frm, to = arrow.split()[1:]
    assert first["action"] == arrow and first["words"].startswith(f"attack {to} ") and f"from {frm} " in first["words"]
    assert first["who"] == f"the {side}"
    assert all(u["words"] for u in preview["undone"])


def test_caens_opening_briefing_says_what_a_result_does(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="caen", mode="tabletop")
    commander = browser_on(c)
    joined(commander, links["Allies commanders"])
    page = commander.get(f"/c/{cid}").text
    assert "Operation Tonga" in page and "Waiting for the commanders at the table" in page
    brief = commander.get(f"/c/{cid}/battle").text
    assert "No battle is open" not in brief
    assert "Operation Tonga: 6th Airborne Division drops on B5 Bréville" in brief
    rows = re.findall(r"<tr><td>([^<]*)</td><td>(\d)</td><td>([^<]*)</td></tr>", brief)
    assert [int(r[1]) for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[2][0] == "3, or neither side reaches 3" and rows[0][0] == "0 or 1 (the Germans 3 or more)"
    assert all("6th Airborne Division" in r[2] and "B5 Bréville" in r[2] for r in rows)


def test_the_pages_own_files_are_served(url: str) -> None:
    c = client(url)
    icon = c.get("/static/favicon.svg")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    for name in ("htmx.min.js", "htmx-ext-sse.min.js"):
        js = c.get(f"/static/vendor/{name}")
        assert js.status_code == 200 and "javascript" in js.headers["content-type"] and len(js.content) > 2000
    assert 'rel="icon" href="/static/favicon.svg"' in c.get("/").text
    assert c.get("/static/../app.py").status_code == 404


GENERALS = {"allies": "Allies general", "axis": "Germans general"}
KEEN = ("activate", "take", "launch", "sail", "attack", "fight", "stand", "dive", "fly")
"""The Strategic Game's orders that lead to a fight, preferred by `play_until`."""


def play_until(c: TestClient, cid: str, links: dict[str, str], done: Callable[[dict[str, Any]], bool],
               keen: tuple[str, ...] = (), seed: int = 5, most: int = 800) -> dict[str, Any]:
    """The generals take random legal actions (those starting with one of `keen` when any does) until `done` holds
    for the organiser's view, which is returned."""
    rng = random.Random(seed)
    for _ in range(most):
        view: dict[str, Any] = c.get(f"/api/campaigns/{cid}/view", headers=auth(links["organiser"])).json()
        if done(view):
            return view
        who = links[GENERALS[str(view["to_act"])]]
        legal = c.get(f"/api/campaigns/{cid}/view", headers=auth(who)).json()["legal"]
        wanted = [a for a in legal if a.startswith(keen)] if keen else []
        assert c.post(f"/api/campaigns/{cid}/act", headers=auth(who),
                      json={"action": rng.choice(wanted or legal)}).status_code == 200
    raise AssertionError("the campaign never got there")


def test_a_fight_at_sea_asks_for_one_number_per_enemy_unit_and_keeps_the_other_sides_secret(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="norway")
    view = play_until(c, cid, links, lambda v: v["step"] == "nv_alloc", KEEN)
    names = {"allies": "Allies", "axis": "Germans"}
    deciding = str(view["to_act"])
    me = links[f"{names[deciding]} general"]
    legal = c.get(f"/api/campaigns/{cid}/view", headers=auth(me)).json()["legal"]
    most: dict[str, int] = {}
    for a in legal:
        if a.startswith("allocate "):
            _, target, n = a.split()
            most[target] = max(most.get(target, 0), int(n))
    page = browser_on(c)
    joined(page, me)
    html = page.get(f"/c/{cid}").text
    assert "Fight at sea at" in html and 'id="allocate-form"' in html
    fields = re.findall(r'<input type="number" name="([^"]+)" min="0" max="(\d+)" value="0">', html)
    assert {t: int(n) for t, n in fields} == most, "one field per enemy unit, as many dice as may go at it"
    assert 'data-action="allocate ' not in html, "no button per allocation"
    # once one side has declared, the other side and the organiser see how many dice it has, not where they go
    counters = load_scenario("norway").counters

    def declared(view: dict[str, Any]) -> list[tuple[str, int]]:
        """What the side that declared first put where (its own view), while the other side is to declare."""
        combat = (view.get("strategic") or {}).get("combat")
        if view["step"] != "nv_alloc" or not combat or combat["rolled"]:
            return []
        first = "axis" if view["to_act"] == "allies" else "allies"
        theirs = c.get(f"/api/campaigns/{cid}/view", headers=auth(links[GENERALS[first]])).json()
        return [(t, k) for v in theirs["strategic"]["combat"]["volleys"] if v["side"] == first
                for t, k in (v.get("alloc") or {}).items()]

    now = play_until(c, cid, links, lambda v: bool(declared(v)), ("allocate", *KEEN), seed=7, most=400)
    for watcher in (links[GENERALS[str(now["to_act"])]], links["organiser"]):
        other_page = browser_on(c)
        joined(other_page, watcher)
        seen = other_page.get(f"/c/{cid}").text
        assert "secret until the roll" in seen
        for t, k in declared(now):
            name = counters[t].name if t in counters else "harbour"
            assert f"{name} {k}" not in seen, "where the dice go is the declaring side's secret"


def test_a_bad_or_foreign_as_tag_is_refused_plainly(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine")
    _, other_links = new_campaign(c, scenario="lorraine")
    browser = browser_on(c)
    joined(browser, links["organiser"])
    for tag in ("%C3%A9", "é" * 12, "0" * 13, "../" * 4, link_tag(other_links["organiser"])):
        for path in (f"/c/{cid}?as={tag}", f"/api/campaigns/{cid}/view?as={tag}"):
            r = browser.get(path)
            assert r.status_code == 401 and "does not hold the link" in r.text, (tag, path, r.status_code)
    r = browser.get(f"/api/campaigns/{cid}/view", headers={b"X-Warroom-As": b"\xc3\xa9" * 6})
    assert r.status_code == 401


def test_a_page_keeps_acting_as_its_own_link_and_a_revoked_link_gives_way(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine")
    browser = browser_on(c)
    joined(browser, links["organiser"])
    boss_tag = link_tag(links["organiser"])
    page = browser.get(f"/c/{cid}").text  # opened from a bookmark: no ?as= in the address
    assert f'hx-get="/c/{cid}?as={boss_tag}"' in page, "its live redrawing stays the organiser's"
    links_page = browser.get(f"/c/{cid}/links?as={boss_tag}").text
    assert f"const as = \"{boss_tag}\";" in links_page, "revoking and reissuing act as the organiser too"
    joined(browser, links["Allies general"])
    tokens = c.get(f"/api/campaigns/{cid}/tokens", headers=auth(links["organiser"])).json()["tokens"]
    general = next(t for t in tokens if t["label"] == "Allies general")
    assert c.post(f"/api/campaigns/{cid}/tokens/{general['token']}/revoke",
                  headers=auth(links["organiser"])).status_code == 204
    assert browser.get(f"/api/campaigns/{cid}/view").json()["you"]["role"] == "organiser", \
        "the latest link revoked, the browser acts as the latest that still works"


def test_the_home_page_shows_a_campaign_that_cannot_be_read_without_hiding_the_others(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    c = client(url)
    good, good_links = new_campaign(c, scenario="lorraine", title="Readable")
    bad, bad_links = new_campaign(c, scenario="lorraine", title="Unreadable")
    browser = browser_on(c)
    joined(browser, good_links["organiser"], bad_links["organiser"])
    campaigns = browser.app.state.campaigns  # type: ignore[attr-defined]
    original = campaigns.position

    def position(row: object) -> object:
        if getattr(row, "id", "") == bad:
            raise ValueError("scenario 'nosuch' is not installed")
        return original(row)

    monkeypatch.setattr(campaigns, "position", position)
    home = browser.get("/organise")
    assert home.status_code == 200
    assert "Readable" in home.text
    assert "cannot be read just now: scenario &#39;nosuch&#39; is not installed" in home.text
    assert f'data-campaign="{bad}"' in home.text and f'data-campaign="{good}"' in home.text


def test_an_after_action_report_of_each_finished_turn(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine")
    browser = browser_on(c)
    joined(browser, links["organiser"])
    assert browser.get(f"/c/{cid}/report?turn=1").status_code == 422, "turn 1 is not over yet"
    play_until(c, cid, links, lambda v: v["turn"] >= 2, seed=3)
    page = browser.get(f"/c/{cid}").text
    assert f'href="/c/{cid}/report?turn=1&amp;as=' in page, "the organiser's tools link the report"
    report = browser.get(f"/c/{cid}/report?turn=1")
    assert report.status_code == 200
    post = re.search(r'<textarea id="post"[^>]*>(.*?)</textarea>', report.text, re.S)
    assert post is not None
    text = post.group(1)
    assert text.startswith("Firestorm: Lorraine: after-action report, turn 1")
    assert "At the end of turn 1: Allies " in text and " VP, Germans " in text
    assert 'class="warroom-svg map-land"' in report.text and "button" in report.text
    log = c.get(f"/api/campaigns/{cid}/log", headers=auth(links["organiser"])).json()["log"]
    assert len([e for e in log if e["turn"] == 1]) > 0
    general = client(url)  # a server of its own: the report made afresh for another side, not read from a cache
    joined(general, links["Allies general"])
    assert general.get(f"/c/{cid}/report?turn=1").text == report.text.replace(
        link_tag(links["organiser"]), link_tag(links["Allies general"])), "every side reads the same report"
    assert browser.get(f"/c/{cid}/report?turn=9").status_code == 422
    assert browser.get(f"/c/{cid}/report?turn=abc").status_code == 422


def test_a_page_fetching_itself_again_gets_only_the_parts_it_does_not_show(url: str) -> None:
    """The live page names the parts it shows, by digest (X-Warroom-Parts): those unchanged come back empty with
    the same digest, and the others whole, so a move that leaves the maps as they were does not send them again."""
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine")
    browser = browser_on(c)
    joined(browser, links["organiser"])
    page = browser.get(f"/c/{cid}").text
    parts = dict(re.findall(r' id="([\w-]+)"(?: class="[^"]*")? data-v="(\w+)"', page))
    assert {"maps", "console", "position", "record"} <= set(parts)
    shown = ",".join(f"{pid}:{v}" for pid, v in parts.items() if pid != "console") + ",console:0000000000000000"
    reply = browser.get(f"/c/{cid}", headers={"X-Warroom-Parts": shown})
    assert reply.headers["vary"] == "X-Warroom-Parts", "a cache must not answer a plain load with a refresh's reply"
    assert reply.headers["cache-control"] == "no-store", "nor keep a refresh's reply, parts left empty and all"
    again = reply.text
    assert f'<div id="maps" data-v="{parts["maps"]}"></div>' in again, "the maps, unchanged, come back empty"
    assert f'<div id="position" data-v="{parts["position"]}"></div>' in again
    assert 'id="console"' in again and "<h2>" in again.split('id="console"')[1].split("</section>")[0], \
        "a part shown in another version comes whole"
    assert len(again) < len(page) / 2
    assert browser.get(f"/c/{cid}").text == page, "a page loaded afresh names nothing and gets everything"


def test_a_part_of_a_live_page_may_not_hold_another() -> None:
    """An inner part unchanged comes back empty on a refresh and would change its outer part's digest: the outer
    part would then be swapped in with the inner one empty. Drawing one inside another is refused outright."""
    nested = templates.env.from_string('{% from "parts.html" import part %}'
                                       '{% call part("outer") %}{% call part("inner") %}x{% endcall %}{% endcall %}')
    with pytest.raises(ValueError, match="may not hold another part"):
        nested.render()
    alone = templates.env.from_string('{% from "parts.html" import part %}{% call part("one") %}x{% endcall %}')
    assert alone.render().startswith('<div id="one" data-v="')
