"""The JSON API on SQLite: roles, errors as 4xx with messages, idempotency, export and import, restart."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support import SERVE_START_SECONDS, auth, browser_on, caen_as_one_file, client, new_campaign

from warroom.scenarios import load_scenario
from warroom.server.guards import MAX_UPLOAD


@pytest.fixture()
def url(database_url: str) -> str:
    return database_url


def to_act(c: TestClient, cid: str, links: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The general's secret of the side to act, and that side's view."""
    for label, secret in links.items():
        if label.endswith("general"):
            view = c.get(f"/api/campaigns/{cid}/view", headers=auth(secret)).json()
            if view["legal"]:
                return secret, view
    raise AssertionError("nobody may act")


def test_a_campaign_is_played_through_the_api_and_survives_a_restart(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c)
    assert set(links) == {"organiser", "Allies general", "Allies commanders", "Germans general",
                          "Germans commanders"}
    for _ in range(12):
        secret, view = to_act(c, cid, links)
        r = c.post(f"/api/campaigns/{cid}/act", headers=auth(secret),
                   json={"action": view["legal"][0], "seq": view["seq"]})
        assert r.status_code == 200, r.text
    before = c.get(f"/api/campaigns/{cid}/view", headers=auth(links["organiser"])).json()
    again = client(url).get(f"/api/campaigns/{cid}/view", headers=auth(links["organiser"])).json()
    assert again == before


def test_errors_are_4xx_with_a_message_and_change_nothing(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c)
    secret, view = to_act(c, cid, links)
    other = next(s for label, s in links.items() if label.endswith("general") and s != secret)
    cases = [
        (c.get(f"/api/campaigns/{cid}/view"), 401),
        (c.get(f"/api/campaigns/{cid}/view", headers=auth("not-a-link")), 404),
        (c.get("/api/campaigns/nope/view", headers=auth(secret)), 404),
        (c.get(f"/api/campaigns/{new_campaign(c)[0]}/view", headers=auth(secret)), 403),  # another campaign's
        (c.post(f"/api/campaigns/{cid}/act", headers=auth(other), json={"action": view["legal"][0]}), 403),
        (c.post(f"/api/campaigns/{cid}/act", headers=auth(links["organiser"]), json={"action": "pass"}), 403),
        (c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"action": "arrow Q9 Q8"}), 422),
        (c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"nothing": 1}), 422),
        (c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), content=b"{not json"), 422),
        (c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"action": view["legal"][0], "seq": 999}),
         409),
        (c.post("/api/campaigns", json={"scenario": "waterloo"}), 422),
        (c.post("/api/campaigns", json={"scenario": "caen", "mode": "chess"}), 422),
        (c.post("/api/campaigns/import", content=b"garbage"), 422),
        (c.post("/api/campaigns/import", content=b"x" * (MAX_UPLOAD + 1)), 413),
    ]
    for response, code in cases:
        assert response.status_code == code, (response.request.url, response.text)
        assert response.json()["detail"], response.text
    after = c.get(f"/api/campaigns/{cid}/view", headers=auth(secret)).json()
    assert after["seq"] == view["seq"]


def test_a_side_sees_only_its_own_console(url: str) -> None:
    """A general's link shows that side's decisions and nothing of the other side's: asking for the other
    side's view, console or result forms changes nothing."""
    c = client(url)
    cid, links = new_campaign(c)
    secret, view = to_act(c, cid, links)
    me = view["you"]["side"]
    other_label = next(label for label in links if label.endswith("general") and links[label] != secret)
    other = links[other_label]
    theirs = c.get(f"/api/campaigns/{cid}/view?side={me}", headers=auth(other)).json()
    assert theirs["you"]["side"] != me and theirs["viewer"] != me and theirs["legal"] == []
    page = browser_on(c)
    page.get(f"/join/{other}")
    html = page.get(f"/c/{cid}?side={me}").text
    assert "data-action=" not in html and "Your decision" not in html
    mine = browser_on(c)
    mine.get(f"/join/{secret}")
    assert all(f'data-action="{a}"' in mine.get(f"/c/{cid}").text for a in view["legal"][:40])
    for commanders in (label for label in links if label.endswith("commanders")):
        commander = c.get(f"/api/campaigns/{cid}/view", headers=auth(links[commanders])).json()
        assert commander["legal"] == [], "commanders report results; they do not command"
        assert c.post(f"/api/campaigns/{cid}/act", headers=auth(links[commanders]),
                      json={"action": view["legal"][0]}).status_code == 403


def test_a_retried_request_is_applied_once(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c)
    secret, view = to_act(c, cid, links)
    body = {"action": view["legal"][0], "key": "click-1"}
    first = c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json=body)
    second = c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json=body)
    assert first.status_code == second.status_code == 200 and first.json() == second.json()
    log = c.get(f"/api/campaigns/{cid}/log", headers=auth(secret)).json()["log"]
    assert len(log) == first.json()["seq"]


def test_export_holds_no_seed_and_imports_as_a_new_campaign(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c)
    for _ in range(5):
        secret, view = to_act(c, cid, links)
        c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"action": view["legal"][0]})
    exported = c.get(f"/api/campaigns/{cid}/export", headers=auth(links["organiser"])).json()
    assert exported["seed"] == 0
    r = c.post("/api/campaigns/import", content=json.dumps(exported).encode())
    assert r.status_code == 201, r.text
    new_id = r.json()["id"]
    organiser = next(link["secret"] for link in r.json()["links"] if link["role"] == "organiser")
    copy = c.get(f"/api/campaigns/{new_id}/view", headers=auth(organiser)).json()
    original = c.get(f"/api/campaigns/{cid}/view", headers=auth(links["organiser"])).json()
    assert copy["areas"] == original["areas"] and copy["seq"] == original["seq"]


def test_a_revoked_link_stops_working(url: str) -> None:
    c = client(url)
    r = c.post("/api/campaigns", json={"scenario": "caen"})
    cid = r.json()["id"]
    links = {link["label"]: link for link in r.json()["links"]}
    general = links["Allies general"]
    assert c.get(f"/api/campaigns/{cid}/view", headers=auth(general["secret"])).status_code == 200
    revoke = f"/api/campaigns/{cid}/tokens/{general['token']}/revoke"
    assert c.post(revoke, headers=auth(general["secret"])).status_code == 403  # not the organiser
    assert c.post(revoke, headers=auth(links["organiser"]["secret"])).status_code == 204
    assert c.get(f"/api/campaigns/{cid}/view", headers=auth(general["secret"])).status_code == 404


def test_warroom_serve_starts_the_server_on_its_data_dir(tmp_path: Path) -> None:
    import os
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "WARROOM_DATA_DIR": str(tmp_path / "data")}
    env.pop("WARROOM_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-c", "from warroom.cli.main import main; main()", "serve",
                             "--port", str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    began = time.monotonic()
    answered = False
    try:
        while not answered:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/openapi.json", timeout=1) as r:
                    answered = r.status == 200
            except OSError:
                if time.monotonic() - began > SERVE_START_SECONDS or proc.poll() is not None:
                    break
                time.sleep(0.1)
    finally:
        ended = proc.poll()  # None: still running when the test stopped waiting
        proc.terminate()
        out, err = proc.communicate(timeout=10)
    # a failure says which: the command ended (and how), or it was still starting after the wait
    why = (f"`warroom serve` ended with exit code {ended} before answering" if ended is not None else
           f"`warroom serve` did not answer within {SERVE_START_SECONDS:.0f} s")
    assert answered, f"{why}; it said: {err[-2000:]}"
    assert (tmp_path / "data" / "warroom.db").exists()
    assert f"http://127.0.0.1:{port}/" in out


def test_pages_start_a_campaign_join_by_link_and_play(url: str) -> None:
    c = client(url)
    assert c.get("/api/openapi.json").status_code == 200
    home = c.get("/")
    assert home.status_code == 200 and "Firestorm: Norway 1940" in home.text
    made = c.post("/new", data={"scenario": "lorraine", "title": "Club <Metz>", "mode": "gw"})
    assert made.status_code == 201 and "Club &lt;Metz&gt;" in made.text
    joins = re.findall(r'href="http://testserver/join/([^"]+)"', made.text)
    assert len(joins) == 5
    pages: dict[str, tuple[TestClient, str, str]] = {}
    for secret in joins:
        visitor = browser_on(c)
        page = visitor.get(f"/join/{secret}")
        assert page.status_code == 200 and ("Your decision" in page.text or "Waiting" in page.text)
        drawn = re.findall(r'<g class="area [^"]*" data-area="([^"]+)"', page.text)
        assert sorted(drawn) == sorted(load_scenario("lorraine").areas)  # the map, area by area
        assert "Victory points by turn" in page.text
        pages[secret] = (visitor, page.text, page.url.path)
    deciding = [(v, path) for v, text, path in pages.values() if "data-action=" in text]
    assert len(deciding) == 1, "exactly one general has a decision"
    visitor, path = deciding[0]
    cid = path.rsplit("/", 1)[1]
    view = visitor.get(f"/api/campaigns/{cid}/view").json()
    r = visitor.post(f"/api/campaigns/{cid}/act", json={"action": view["legal"][0], "seq": view["seq"], "key": "a"})
    assert r.status_code == 200, r.text
    assert browser_on(c).get(f"/c/{cid}").status_code == 401  # no link, no page
    assert browser_on(c).get("/join/not-a-link").status_code == 404


def play_to_report(c: TestClient, cid: str, links: dict[str, str]) -> dict[str, Any]:
    """Generals take the first legal action until a tabletop result is asked for."""
    organiser = links["organiser"]
    for _ in range(200):
        view: dict[str, Any] = c.get(f"/api/campaigns/{cid}/view", headers=auth(organiser)).json()
        if view["results"]:
            return view
        secret, mine = to_act(c, cid, links)
        assert c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"action": mine["legal"][0]}).is_success
    raise AssertionError("no tabletop battle came")


SIDE_NAMES = {"allies": "Allies", "axis": "Germans"}


def result_of(c: TestClient, cid: str, secret: str, battle: int) -> dict[str, Any]:
    view = c.get(f"/api/campaigns/{cid}/view", headers=auth(secret)).json()
    return next(r for r in view["results"] if r["battle"] == battle)


def test_a_tabletop_result_is_reported_then_confirmed_or_disputed_and_decided(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, mode="tabletop")
    view = play_to_report(c, cid, links)
    asked = view["results"][0]
    no = asked["battle"]
    attacker, defender = asked["attacker"] or "allies", asked["defender"] or "axis"  # Caen's D-Day: the Allies land
    reporter = links[f"{SIDE_NAMES[attacker]} commanders"]
    confirmer = links[f"{SIDE_NAMES[defender]} commanders"]
    act = f"/api/campaigns/{cid}/act"
    assert c.post(act, headers=auth(reporter), json={"action": "report 9 1"}).status_code == 409  # 0-6 only
    r = c.post(act, headers=auth(reporter), json={"action": "report 4 1"})
    assert r.status_code == 200 and r.json()["pending"]["attacker_vp"] == 4
    assert c.post(f"/api/campaigns/{cid}/confirm", headers=auth(reporter)).status_code == 403  # not themselves
    again = c.post(act, headers=auth(confirmer), json={"action": "report 1 1"})
    assert again.status_code == 409 and "already reported" in again.json()["detail"]
    seq = view["seq"]
    assert c.post(f"/api/campaigns/{cid}/dispute", headers=auth(confirmer)).status_code == 200
    shown = c.get(f"/api/campaigns/{cid}/view", headers=auth(confirmer)).json()
    assert shown["results"][0]["pending"]["disputed"] and shown["seq"] == seq  # nothing applied yet
    assert not shown["results"][0]["can_confirm"]
    decide = f"/api/campaigns/{cid}/decide"
    assert c.post(decide, headers=auth(confirmer), json={"attacker_vp": 3, "defender_vp": 3}).status_code == 403
    r = c.post(decide, headers=auth(links["organiser"]), json={"attacker_vp": 2, "defender_vp": 4, "battle": no})
    assert r.status_code == 200 and r.json()["applied"][0] == "report 2 4"
    log = c.get(f"/api/campaigns/{cid}/log", headers=auth(reporter)).json()["log"]
    assert log[seq]["action"] == "report 2 4"
    # the next results are of battles at the table: numbered, reported through the report endpoint
    view = play_to_report(c, cid, links)
    while not view["results"][0]["battle"]:
        r = c.post(decide, headers=auth(links["organiser"]), json={"attacker_vp": 3, "defender_vp": 3})
        assert r.status_code == 200
        view = play_to_report(c, cid, links)
    asked = view["results"][0]
    no = asked["battle"]
    reporter = links[f"{SIDE_NAMES[asked['defender']]} commanders"]
    confirmer = links[f"{SIDE_NAMES[asked['attacker']]} general"]
    bad = c.post(f"/api/campaigns/{cid}/report", headers=auth(reporter),
                 json={"battle": 99, "attacker_vp": 1, "defender_vp": 5})
    assert bad.status_code == 409 and "battle 99 is not waiting" in bad.json()["detail"]
    r = c.post(f"/api/campaigns/{cid}/report", headers=auth(reporter),
               json={"battle": no, "attacker_vp": 1, "defender_vp": 5})
    assert r.status_code == 200, r.text
    assert result_of(c, cid, confirmer, no)["can_confirm"]
    r = c.post(f"/api/campaigns/{cid}/confirm", headers=auth(confirmer), json={"battle": no})
    assert r.status_code == 200 and r.json()["applied"][0] == f"report {no} 1 5"
    results = c.get(f"/api/campaigns/{cid}/view", headers=auth(confirmer)).json()["results"]
    assert all(x["battle"] != no for x in results)
    again = c.post(f"/api/campaigns/{cid}/confirm", headers=auth(confirmer), json={"battle": no})
    assert again.status_code == 409 and "reload" in again.json()["detail"]


def test_the_organiser_undoes_after_a_preview_listing_exactly_what_goes(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c)
    views = []
    for _ in range(4):
        secret, view = to_act(c, cid, links)
        views.append(view)
        assert c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"action": view["legal"][0]}).is_success
    organiser = auth(links["organiser"])
    player = next(s for label, s in links.items() if label.endswith("general"))
    assert c.get(f"/api/campaigns/{cid}/undo?count=2", headers=auth(player)).status_code == 403
    assert c.get(f"/api/campaigns/{cid}/undo?count=999", headers=organiser).status_code == 422
    preview = c.get(f"/api/campaigns/{cid}/undo?count=2", headers=organiser).json()
    decisions = [u["action"] for u in preview["undone"] if not u["dice"]]
    assert decisions == [views[2]["legal"][0], views[3]["legal"][0]]
    assert c.post(f"/api/campaigns/{cid}/undo", headers=organiser,
                  json={"count": 2, "seq": preview["seq"] - 1}).status_code == 409  # not what was previewed
    r = c.post(f"/api/campaigns/{cid}/undo", headers=organiser, json={"count": 2, "seq": preview["seq"]})
    assert r.status_code == 200
    now = c.get(f"/api/campaigns/{cid}/view", headers=organiser).json()
    assert now["seq"] == views[2]["seq"] and now["areas"] == views[2]["areas"]
    again = client(url).get(f"/api/campaigns/{cid}/view", headers=organiser).json()  # after a restart too
    assert again["seq"] == views[2]["seq"]


def test_play_against_the_bot_and_hot_seat_in_the_browser(url: str) -> None:
    c = client(url)
    r = c.post("/api/campaigns", json={"scenario": "lorraine", "bots": {"axis": "heuristic"}, "hotseat": True})
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    links = {link["label"]: link["secret"] for link in r.json()["links"]}
    me = auth(links["Allies general"])
    for _ in range(60):  # the Germans never wait for a person: the server's bot answers at once
        view = c.get(f"/api/campaigns/{cid}/view", headers=me).json()
        if view["terminal"]:
            break
        assert view["to_act"] == "allies", view["step"]
        assert c.post(f"/api/campaigns/{cid}/act", headers=me, json={"action": view["legal"][0]}).is_success
    log = c.get(f"/api/campaigns/{cid}/log", headers=me).json()["log"]
    assert any(e["side"] == "axis" for e in log)
    both = c.post("/api/campaigns", json={"scenario": "caen", "hotseat": True}).json()
    seat = auth(next(link["secret"] for link in both["links"] if link["label"] == "every side (hot-seat)"))
    sides = set()
    for _ in range(40):
        view = c.get(f"/api/campaigns/{both['id']}/view", headers=seat).json()
        sides.add(view["to_act"])
        assert c.post(f"/api/campaigns/{both['id']}/act", headers=seat, json={"action": view["legal"][0]}).is_success
    assert {"allies", "axis"} <= sides
    assert c.post("/api/campaigns", json={"scenario": "caen", "bots": {"martians": "heuristic"}}).status_code == 422


def test_the_organiser_reissues_a_revoked_link(url: str) -> None:
    c = client(url)
    r = c.post("/api/campaigns", json={"scenario": "caen"}).json()
    cid = r["id"]
    links = {link["label"]: link for link in r["links"]}
    boss = auth(links["organiser"]["secret"])
    listed = c.get(f"/api/campaigns/{cid}/tokens", headers=boss).json()["tokens"]
    assert len(listed) == 5 and all("secret" not in t for t in listed)
    old = links["Germans general"]
    c.post(f"/api/campaigns/{cid}/tokens/{old['token']}/revoke", headers=boss)
    new = c.post(f"/api/campaigns/{cid}/tokens", headers=boss, json={"role": "general", "side": "axis"})
    assert new.status_code == 201 and new.json()["secret"] != old["secret"]
    assert c.get(f"/api/campaigns/{cid}/view", headers=auth(new.json()["secret"])).json()["you"]["side"] == "axis"
    assert c.post(f"/api/campaigns/{cid}/tokens", headers=boss, json={"role": "general", "side": "mars"}
                  ).status_code == 422
    assert c.post(f"/api/campaigns/{cid}/tokens", headers=auth(links["Allies general"]["secret"]),
                  json={"role": "organiser"}).status_code == 403


def test_no_response_holds_the_dice_key(url: str) -> None:
    c = client(url)
    r = c.post("/api/campaigns", json={"scenario": "caen"})
    cid = r.json()["id"]
    links = {link["label"]: link["secret"] for link in r.json()["links"]}
    key = c.app.state.campaigns.store.campaign(cid).dice_key  # type: ignore[attr-defined]
    bodies = [r.text]
    for secret in links.values():
        for path in ("view", "log", "export", "tokens"):
            bodies.append(c.get(f"/api/campaigns/{cid}/{path}", headers=auth(secret)).text)
        page = browser_on(c)
        bodies.append(page.get(f"/join/{secret}").text)
    forms = (key.hex(), key.hex().upper(), str(int.from_bytes(key, "big")))
    assert not [b for b in bodies if any(f in b for f in forms)]


def test_a_campaign_from_an_uploaded_scenario_survives_a_restart(url: str) -> None:
    c = client(url)
    r = c.post("/api/campaigns", json={"scenario_toml": caen_as_one_file("club_caen"), "title": "Ours"})
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    links = {link["label"]: link["secret"] for link in r.json()["links"]}
    secret, view = to_act(c, cid, links)
    assert view["scenario"] == "club_caen"
    assert c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"action": view["legal"][0]}).is_success
    after = client(url).get(f"/api/campaigns/{cid}/view", headers=auth(links["organiser"])).json()
    assert after["scenario"] == "club_caen" and after["seq"] > view["seq"]
    broken = c.post("/api/campaigns", json={"scenario_toml": "[scenario\nid = 1"})
    assert broken.status_code == 422 and "not valid TOML" in broken.json()["detail"]
    bad_start = caen_as_one_file("x").replace('start = "B4"', 'start = "Q9"', 1)
    wrong = c.post("/api/campaigns", json={"scenario_toml": bad_start})
    assert wrong.status_code == 422 and "Q9" in wrong.json()["detail"]


def test_the_start_page_takes_an_uploaded_scenario_file(url: str) -> None:
    c = client(url)
    files = {"scenario_file": ("club.toml", caen_as_one_file("club_upload").encode(), "application/toml")}
    r = c.post("/new", data={"scenario": "", "mode": "gw"}, files=files)
    assert r.status_code == 201 and len(re.findall(r"/join/", r.text)) >= 5
    bad = c.post("/new", data={"scenario": ""}, files={"scenario_file": ("x.toml", b"[[area]]\nid = 3", "text/plain")})
    assert bad.status_code == 422 and "problem" in bad.text and bad.headers["content-type"].startswith("text/html")


def test_each_open_battle_has_a_briefing_for_its_commanders(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine", mode="tabletop")
    view = play_to_report(c, cid, links)
    assert view["open_battles"], "Lorraine's first turn sends its battles to the table"
    sc = load_scenario("lorraine")
    commander = browser_on(c)
    commander.get(f"/join/{links['Allies commanders']}")
    campaign_page = commander.get(f"/c/{cid}").text
    for battle in view["open_battles"]:
        assert f"/c/{cid}/battle?no={battle['no']}" in campaign_page
        page = commander.get(f"/c/{cid}/battle?no={battle['no']}")
        assert page.status_code == 200
        text = page.text
        assert sc.areas[battle["to"]].name in text and "Suggested mission" in text
        for unit in battle["attacker_troops"] + battle["defender_troops"]:
            if not unit.startswith("@"):
                troop = sc.troops[unit]
                assert troop.name in text and (not troop.points or f"{troop.points} pts" in text)
    assert "No battle is open" in commander.get(f"/c/{cid}/battle?no=99").text
    assert commander.get(f"/c/{cid}/battle?no=x").status_code == 422
    assert browser_on(c).get(f"/c/{cid}/battle").status_code == 401


def test_undo_against_the_bot_returns_to_a_decision_of_the_player(url: str) -> None:
    c = client(url)
    r = c.post("/api/campaigns", json={"scenario": "lorraine", "bots": {"axis": "random"}}).json()
    cid = r["id"]
    links = {link["label"]: link["secret"] for link in r["links"]}
    me, boss = auth(links["Allies general"]), auth(links["organiser"])
    seen = []
    for _ in range(6):
        view = c.get(f"/api/campaigns/{cid}/view", headers=me).json()
        seen.append(view)
        assert c.post(f"/api/campaigns/{cid}/act", headers=me, json={"action": view["legal"][0]}).is_success
    preview = c.get(f"/api/campaigns/{cid}/undo?count=2", headers=boss).json()
    assert [u["action"] for u in preview["undone"] if u["side"] == "allies"][:1] == [seen[4]["legal"][0]]
    assert c.post(f"/api/campaigns/{cid}/undo", headers=boss, json={"count": 2, "seq": preview["seq"]}).is_success
    now = c.get(f"/api/campaigns/{cid}/view", headers=me).json()
    assert now["to_act"] == "allies" and now["legal"] == seen[4]["legal"]


def test_the_event_stream_tells_the_position_number(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c)
    seq = c.get(f"/api/campaigns/{cid}/view", headers=auth(links["organiser"])).json()["seq"]
    with c.stream("GET", f"/api/campaigns/{cid}/events", headers=auth(links["organiser"])) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        first = next(line for line in stream.iter_lines() if line.startswith("data:"))
    assert json.loads(first.removeprefix("data:")) == {"seq": seq, "epoch": 0, "waiting": ""}
    assert c.get(f"/api/campaigns/{cid}/events").status_code == 401
    # a reported result appends nothing, but the pages following the campaign must show it
    cid, links = new_campaign(c, mode="tabletop")
    asked = play_to_report(c, cid, links)["results"][0]
    reporter = links[f"{SIDE_NAMES[asked['attacker'] or 'allies']} commanders"]
    assert c.post(f"/api/campaigns/{cid}/report", headers=auth(reporter),
                  json={"battle": asked["battle"], "attacker_vp": 4, "defender_vp": 1}).status_code == 200
    view = c.get(f"/api/campaigns/{cid}/view", headers=auth(links["organiser"])).json()
    assert view["waiting"].startswith(f"{asked['battle']}:")
    with c.stream("GET", f"/api/campaigns/{cid}/events", headers=auth(links["organiser"])) as stream:
        first = next(line for line in stream.iter_lines() if line.startswith("data:"))
    assert json.loads(first.removeprefix("data:")) == {"seq": view["seq"], "epoch": 0, "waiting": view["waiting"]}


def test_settle_heap_sets_the_start_aside_from_the_collector_and_keeps_no_garbage() -> None:
    import gc
    import weakref

    from warroom.server.app import settle_heap

    class Node:
        other: Any = None

    garbage = Node()
    garbage.other = Node()
    garbage.other.other = garbage  # a cycle: only the collector frees it
    gone = weakref.ref(garbage)
    del garbage
    assert gc.get_freeze_count() == 0
    try:
        settle_heap()
        assert gone() is None  # collected first, not set aside
        assert gc.get_freeze_count() > 10_000  # the modules, the rule systems' data
    finally:
        gc.unfreeze()


def test_serve_settles_the_heap_once_the_app_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    import uvicorn
    from typer.testing import CliRunner

    import warroom.server.app as server_app
    from warroom.cli.main import app

    calls: list[str] = []
    monkeypatch.setattr(server_app, "settle_heap", lambda: calls.append("settled"))
    monkeypatch.setattr(uvicorn.Server, "run", lambda _self, sockets=None: calls.append("served"))
    # uvicorn's Config sets up logging with dictConfig, which closes every logging handler of the process: in a
    # pytest worker that is pytest's own, and each later test of the worker then errors ("I/O operation on closed
    # file"; seen in whole-suite runs)
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda _self: None)
    monkeypatch.setenv("WARROOM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("WARROOM_DATABASE_URL", raising=False)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = CliRunner().invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert calls == ["settled", "served"]
