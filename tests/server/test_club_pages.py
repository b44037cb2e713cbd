"""The club pages in the players' words (issue 16): several links in one browser, the organiser's home, choices and
undo previews in words, the D-Day landing's briefing, and the pages' own files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support import auth, client, new_campaign
from test_organiser_tools import play_to_a_table

from warroom.server.web import MAX_HELD, cookie_name, link_tag


@pytest.fixture()
def url(tmp_path: Path) -> str:
    """Pages read the same whatever the database: SQLite only (the API's tests cover PostgreSQL)."""
    return f"sqlite:///{tmp_path / 'club.db'}"


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
    browser = client(url)
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
    browser = client(url)
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
    browser = client(url)
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
    general = client(url)
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
    commander = client(url)
    joined(commander, links["Allies commanders"])
    page = commander.get(f"/c/{cid}").text
    assert "Operation Tonga" in page and "Waiting for the commanders at the table" in page
    brief = commander.get(f"/c/{cid}/battle").text
    assert "No battle is open" not in brief
    assert "Operation Tonga: 6th Airborne Division drops on B5 Bréville" in brief
    rows = re.findall(r"<tr><td>([^<]*)</td><td>(\d)</td><td>([^<]*)</td></tr>", brief)
    assert [int(r[1]) for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[2][0] == "3, or neither side reaches 3" and rows[0][0] == "0 or 1"
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
