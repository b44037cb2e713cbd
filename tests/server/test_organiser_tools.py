"""Nothing lost by the organiser's tools (issue 11, part 4): undo and waiting results, the organiser's own
link, the links page, export and import that round-trip, request keys scoped to their link, and a Decide
form that asks for the result. The tests marked `every_database` run on PostgreSQL too: the undo's rewrite of the
waiting results, row locks and writes that must leave nothing behind (tests/server/conftest.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support import auth, browser_on, caen_as_one_file, client, new_campaign

SIDE_NAMES = {"allies": "Allies", "axis": "Germans"}


@pytest.fixture()
def url(database_url: str) -> str:
    return database_url


def view_of(c: TestClient, cid: str, secret: str) -> dict[str, Any]:
    got: dict[str, Any] = c.get(f"/api/campaigns/{cid}/view", headers=auth(secret)).json()
    return got


def act_first(c: TestClient, cid: str, links: dict[str, str]) -> str:
    """The side to act takes its first legal action; returns it."""
    for label, secret in links.items():
        if label.endswith("general"):
            mine = view_of(c, cid, secret)
            if mine["legal"]:
                r = c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"action": mine["legal"][0]})
                assert r.status_code == 200, r.text
                return str(mine["legal"][0])
    raise AssertionError("nobody may act")


def play_to_a_table(c: TestClient, cid: str, links: dict[str, str]) -> dict[str, Any]:
    """Generals take their first legal action until a battle waits at a table; that result's entry."""
    for _ in range(300):
        numbered = [r for r in view_of(c, cid, links["organiser"])["results"] if r["battle"]]
        if numbered:
            return dict(numbered[0])
        act_first(c, cid, links)
    raise AssertionError("no battle went to the table")


def a_report_at_a_table(c: TestClient, attacker_vp: int, defender_vp: int
                        ) -> tuple[str, dict[str, str], dict[str, Any]]:
    """A Lorraine tabletop campaign played until a battle waits at a table, whose attacker's commanders
    then report `attacker_vp`-`defender_vp`: (campaign id, links, that battle's entry of the view)."""
    cid, links = new_campaign(c, scenario="lorraine", mode="tabletop")
    asked = play_to_a_table(c, cid, links)
    reporter = links[f"{SIDE_NAMES[asked['attacker']]} commanders"]
    r = c.post(f"/api/campaigns/{cid}/report", headers=auth(reporter),
               json={"battle": asked["battle"], "attacker_vp": attacker_vp, "defender_vp": defender_vp})
    assert r.status_code == 200, r.text
    return cid, links, asked


@pytest.mark.every_database
def test_an_undo_keeps_a_waiting_result_that_still_applies_and_lists_what_it_discards(url: str) -> None:
    """A 6-1 reported for battle N at the table survives the organiser undoing an unrelated later decision
    (before issue 11 it vanished); undoing back past the battle's trip to the table discards it, and the
    preview says so first."""
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine", mode="tabletop")
    boss = auth(links["organiser"])
    asked = play_to_a_table(c, cid, links)
    no = asked["battle"]
    reporter = links[f"{SIDE_NAMES[asked['attacker']]} commanders"]
    confirmer = links[f"{SIDE_NAMES[asked['defender']]} commanders"]
    r = c.post(f"/api/campaigns/{cid}/report", headers=auth(reporter),
               json={"battle": no, "attacker_vp": 6, "defender_vp": 1})
    assert r.status_code == 200, r.text
    unrelated = act_first(c, cid, links)
    preview = c.get(f"/api/campaigns/{cid}/undo?count=1", headers=boss).json()
    assert preview["undone"][0]["action"] == unrelated
    assert preview["discarded"] == []
    assert [(k["battle"], k["attacker_vp"], k["defender_vp"], k["by"]) for k in preview["kept"]] == \
        [(no, 6, 1, asked["attacker"])]
    r = c.post(f"/api/campaigns/{cid}/undo", headers=boss,
               json={"count": 1, "seq": preview["seq"], "waiting": preview["waiting"]})
    assert r.status_code == 200, r.text
    waiting = next(x for x in view_of(c, cid, confirmer)["results"] if x["battle"] == no)
    assert waiting["pending"]["attacker_vp"] == 6 and waiting["can_confirm"]
    # undo back to before the battle went to the table: the result no longer answers anything
    count = 1
    while True:
        preview = c.get(f"/api/campaigns/{cid}/undo?count={count}", headers=boss).json()
        if preview["discarded"]:
            break
        assert [k["battle"] for k in preview["kept"]] == [no]
        count += 1
    assert [(d["battle"], d["attacker_vp"], d["defender_vp"]) for d in preview["discarded"]] == [(no, 6, 1)]
    assert "Battle" in preview["discarded"][0]["title"] and preview["discarded"][0]["by_name"]
    r = c.post(f"/api/campaigns/{cid}/undo", headers=boss,
               json={"count": count, "seq": preview["seq"], "waiting": preview["waiting"]})
    assert r.status_code == 200 and r.json()["discarded"] == preview["discarded"]
    assert view_of(c, cid, links["organiser"])["waiting"] == ""


def test_an_undo_refuses_when_a_result_came_in_after_its_preview(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine", mode="tabletop")
    boss = auth(links["organiser"])
    asked = play_to_a_table(c, cid, links)
    act_first(c, cid, links)
    preview = c.get(f"/api/campaigns/{cid}/undo?count=1", headers=boss).json()
    reporter = links[f"{SIDE_NAMES[asked['attacker']]} commanders"]
    assert c.post(f"/api/campaigns/{cid}/report", headers=auth(reporter),
                  json={"battle": asked["battle"], "attacker_vp": 5, "defender_vp": 2}).status_code == 200
    r = c.post(f"/api/campaigns/{cid}/undo", headers=boss,
               json={"count": 1, "seq": preview["seq"], "waiting": preview["waiting"]})
    assert r.status_code == 409 and "preview" in r.json()["detail"]


def test_the_only_organiser_link_cannot_be_revoked(url: str) -> None:
    c = client(url)
    r = c.post("/api/campaigns", json={"scenario": "caen"}).json()
    cid, first = r["id"], next(link for link in r["links"] if link["role"] == "organiser")
    boss = auth(first["secret"])
    refused = c.post(f"/api/campaigns/{cid}/tokens/{first['token']}/revoke", headers=boss)
    assert refused.status_code == 409 and "only organiser link" in refused.json()["detail"]
    assert view_of(c, cid, first["secret"])["you"]["role"] == "organiser"  # still works
    second = c.post(f"/api/campaigns/{cid}/tokens", headers=boss, json={"role": "organiser"}).json()
    assert c.post(f"/api/campaigns/{cid}/tokens/{first['token']}/revoke", headers=boss).status_code == 204
    again = c.post(f"/api/campaigns/{cid}/tokens/{second['token']}/revoke", headers=auth(second["secret"]))
    assert again.status_code == 409
    unknown = c.post(f"/api/campaigns/{cid}/tokens/{first['token']}/revoke", headers=auth(second["secret"]))
    assert unknown.status_code == 404  # already revoked


def test_the_links_page_lists_revokes_and_reissues_links(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, hotseat=True)
    organiser = browser_on(c)
    organiser.get(f"/join/{links['organiser']}")
    page = organiser.get(f"/c/{cid}/links")
    assert page.status_code == 200
    for label in ("organiser", "Allies general", "Germans commanders", "every side (hot-seat)"):
        assert label in page.text
    assert not [s for s in links.values() if s in page.text]  # no secret on the page
    assert 'id="reissue"' in page.text and page.text.count('class="revoke"') == 6
    assert f'href="/c/{cid}/links?as=' in organiser.get(f"/c/{cid}").text  # acting as the organiser's link
    general = browser_on(c)
    general.get(f"/join/{links['Allies general']}")
    refused = general.get(f"/c/{cid}/links")
    assert refused.status_code == 403 and refused.headers["content-type"].startswith("text/html")
    assert f'href="/c/{cid}/links"' not in general.get(f"/c/{cid}").text


def test_export_and_import_round_trip_title_seats_and_uploaded_scenario(url: str, tmp_path: Path) -> None:
    c = client(url)
    created = c.post("/api/campaigns", json={"scenario_toml": caen_as_one_file("club_caen"), "title": "Our club",
                                             "hotseat": True, "mode": "tabletop", "bots": {"axis": "random"}})
    assert created.status_code == 201, created.text
    cid = created.json()["id"]
    links = {link["label"]: link["secret"] for link in created.json()["links"]}
    hot = links["every side (hot-seat)"]
    for _ in range(6):
        legal = view_of(c, cid, hot)["legal"]
        if legal:
            c.post(f"/api/campaigns/{cid}/act", headers=auth(hot), json={"action": legal[0]})
    exported = c.get(f"/api/campaigns/{cid}/export", headers=auth(links["organiser"])).json()
    assert exported["seed"] == 0 and exported["club"]["title"] == "Our club"
    assert {"role": "general", "side": "*"} in exported["club"]["seats"]
    assert "club_caen" in exported["club"]["scenario_toml"]
    other = client(f"sqlite:///{tmp_path / 'another-server.db'}")  # a new server knows nothing of club_caen
    r = other.post("/api/campaigns/import", content=json.dumps(exported).encode())
    assert r.status_code == 201, r.text
    copy_links = {link["label"]: link["secret"] for link in r.json()["links"]}
    assert set(copy_links) == set(links)
    copy = view_of(other, r.json()["id"], copy_links["organiser"])
    original = view_of(c, cid, links["organiser"])
    assert copy["areas"] == original["areas"] and copy["seq"] == original["seq"] and copy["scenario"] == "club_caen"
    page = TestClient(other.app)
    page.get(f"/join/{copy_links['organiser']}")
    assert "Our club" in page.get(f"/c/{r.json()['id']}").text
    again = other.get(f"/api/campaigns/{r.json()['id']}/export", headers=auth(copy_links["organiser"])).json()
    assert again["log"] == exported["log"] and again["club"] == exported["club"] and again["params"] == \
        exported["params"]


def test_an_import_refuses_another_scenario_version_and_uploads_never_shadow_bundled_ids(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c)
    exported = c.get(f"/api/campaigns/{cid}/export", headers=auth(links["organiser"])).json()
    exported["scenario_version"] = "9.9.9"
    r = c.post("/api/campaigns/import", content=json.dumps(exported).encode())
    assert r.status_code == 422 and "9.9.9" in r.json()["detail"] and "version" in r.json()["detail"]
    shadow = c.post("/api/campaigns", json={"scenario_toml": caen_as_one_file("caen")})
    assert shadow.status_code == 422 and "bundled" in shadow.json()["detail"]
    exported["scenario_version"] = "1.0.0"
    exported["club"]["scenario_toml"] = caen_as_one_file("caen")
    r = c.post("/api/campaigns/import", content=json.dumps(exported).encode())
    assert r.status_code == 422 and "bundled" in r.json()["detail"]
    exported["club"]["scenario_toml"] = caen_as_one_file("elsewhere")
    r = c.post("/api/campaigns/import", content=json.dumps(exported).encode())
    assert r.status_code == 422 and "elsewhere" in r.json()["detail"]
    exported["club"] = {"seats": [{"role": "emperor", "side": ""}]}
    r = c.post("/api/campaigns/import", content=json.dumps(exported).encode())
    assert r.status_code == 422 and "emperor" in r.json()["detail"]


def test_a_terminal_save_imports_with_its_bot_kept(url: str, tmp_path: Path) -> None:
    from warroom.core.log import GameRecord
    from warroom.rulesets.firestorm import new_game
    from warroom.scenarios import load_scenario

    sc = load_scenario("caen")
    st = new_game(sc, {"mode": "gw", "players": {"allies": "human", "axis": "bot"}, "bot": "random"})
    record: GameRecord = st.record(5)
    c = client(url)
    r = c.post("/api/campaigns/import", content=record.to_json().encode())
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    boss = next(link["secret"] for link in r.json()["links"] if link["role"] == "organiser")
    assert c.get(f"/api/campaigns/{cid}/export", headers=auth(boss)).json()["params"] == \
        {"mode": "gw", "bots": {"axis": "random"}, "revision": 2}  # the rules' revision the game began under


def test_request_keys_are_scoped_to_their_link(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c)
    to_act = next(s for label, s in links.items() if label.endswith("general") and view_of(c, cid, s)["legal"])
    action = view_of(c, cid, to_act)["legal"][0]
    first = c.post(f"/api/campaigns/{cid}/act", headers=auth(to_act), json={"action": action, "key": "k-1"})
    assert first.status_code == 200
    for label, secret in links.items():
        if secret == to_act:
            continue
        other = c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"action": action, "key": "k-1"})
        assert other.status_code in (403, 409) and other.json() != first.json(), (label, other.text)
    same = c.post(f"/api/campaigns/{cid}/act", headers=auth(to_act), json={"action": action, "key": "k-1"})
    assert same.json() == first.json()


def test_the_decide_form_asks_for_the_result_and_a_confirmation(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine", mode="tabletop")
    play_to_a_table(c, cid, links)
    page = browser_on(c)
    page.get(f"/join/{links['organiser']}")
    html = page.get(f"/c/{cid}").text
    start = html.index('<form class="decide" id="decide-')
    form = html[start:html.index("</form>", start)]
    assert 'value="0"' not in form and form.count("required") == 2
    assert "decide-confirm" in form and "yes, settle it" in form
    assert c.post(f"/api/campaigns/{cid}/decide", headers=auth(links["organiser"]), json={"battle": 1}
                  ).status_code == 422  # the API never settles a result nobody typed either
    script = page.get("/static/play.js").text  # the page's script, served once for every page
    assert '<script src="/static/play.js"></script>' in html
    assert re.search(r'classList\.contains\("decide-yes"\)\) \{\s+const form = t\.closest\("form"\);\s+'
                     r'post\("decide", \{\.\.\.result\(box, form\), key: form\.dataset\.key\}', script)


# ----- a waiting result answers one battle's trip to the table, in one undo epoch ---------------------------------
def service_of(url: str) -> Any:
    from warroom.server.db import engine_for
    from warroom.server.service import Campaigns
    from warroom.server.store import EventStore

    return Campaigns(EventStore(engine_for(url)))  # migrated already (tests/server/conftest.py)


def position_at(st: Any, log: list[Any]) -> Any:
    """The campaign of `st` replayed from its start through `log`."""
    from warroom.core.game import replay
    from warroom.core.log import GameRecord
    from warroom.rulesets.firestorm import new_game

    return replay(GameRecord(st.sc.id, st.sc.version, st.params, 0, log), lambda: new_game(st.sc, st.params))


def test_an_undo_never_hands_a_result_to_an_earlier_battle_of_the_same_number(url: str) -> None:
    """Battle numbers restart every turn. A 6-0 reported for turn 2's battle 1 must not survive an undo back
    into turn 1 while turn 1's battle 1 (another attack) is at the table: the preview lists it as discarded
    for every undo that goes back before its own battle went to the table, and keeps it otherwise."""
    campaigns = service_of(url)
    cid, invitations = campaigns.create("lorraine", params={"mode": "tabletop", "parallel": True})
    grants = {i.label: campaigns.store.grant(i.secret) for i in invitations}
    boss = grants["organiser"]
    names = {"allies": "Allies", "axis": "Germans"}
    for _ in range(600):
        st = campaigns.state(cid)
        if st.turn == 2 and st.parked:
            break
        for r in campaigns.results(boss):
            campaigns.decide(boss, 3, 3, r["battle"])
        st = campaigns.state(cid)
        if st.current_player() in names:
            campaigns.act(grants[f"{names[st.current_player()]} general"], st.legal_actions()[0].to_str())
    st = campaigns.state(cid)
    assert st.turn == 2 and st.parked, "turn 2 sent a battle to the table"
    b = st.parked[0]
    campaigns.report(grants[f"{names[b.attacker]} commanders"], b.no, 6, 0)
    earlier_same_number = 0
    log = campaigns.store.log(cid)
    decisions = [i for i, e in enumerate(log) if not e.automatic]
    for count in range(1, len(decisions) + 1):
        preview = campaigns.undo_preview(boss, count)
        kept = [k["battle"] for k in preview["kept"]]
        discarded = [d["battle"] for d in preview["discarded"]]
        assert (kept, discarded) == (([b.no], []) if preview["keep"] >= b.parked_at else ([], [b.no])), count
        back = position_at(st, log[:preview["keep"]])
        earlier_same_number += any(p.no == b.no and p.parked_at < b.parked_at for p in back.parked)
    assert earlier_same_number, "some undo lands where an earlier battle of the same number waits"
    count = next(n for n in range(1, len(decisions) + 1)
                 if any(p.no == b.no and not p.winner for p in position_at(st, log[:decisions[-n]]).parked))
    preview = campaigns.undo_preview(boss, count)
    campaigns.undo(boss, count, preview["seq"], preview["waiting"], preview["epoch"])
    for label in ("Allies commanders", "Germans commanders"):
        waiting = [r for r in campaigns.results(grants[label]) if r["battle"] == b.no]
        assert waiting and waiting[0]["pending"] is None and not waiting[0]["can_confirm"], label


@pytest.mark.every_database
def test_a_report_that_crosses_an_undo_is_refused(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from warroom.server.store import ConflictError

    campaigns = service_of(url)
    cid, invitations = campaigns.create("lorraine", params={"mode": "tabletop", "parallel": True})
    grants = {i.label: campaigns.store.grant(i.secret) for i in invitations}
    names = {"allies": "Allies", "axis": "Germans"}
    for _ in range(300):
        st = campaigns.state(cid)
        if st.parked:
            break
        campaigns.act(grants[f"{names[st.current_player()]} general"], st.legal_actions()[0].to_str())
    b = campaigns.state(cid).parked[0]
    campaigns.act(grants[f"{names[campaigns.state(cid).current_player()]} general"],
                  campaigns.state(cid).legal_actions()[0].to_str())
    boss = grants["organiser"]
    real_add = campaigns.store.add_pending

    def undo_first(cid_: str, battle: int, report: Any, *rest: Any) -> None:  # the organiser's undo comes between
        preview = campaigns.undo_preview(boss, 1)
        campaigns.undo(boss, 1, preview["seq"], preview["waiting"])
        real_add(cid_, battle, report, *rest)

    monkeypatch.setattr(campaigns.store, "add_pending", undo_first)
    with pytest.raises(ConflictError, match="undid"):
        campaigns.report(grants[f"{names[b.attacker]} commanders"], b.no, 6, 0)
    assert campaigns.store.pendings(cid) == {}


def test_a_confirmation_racing_an_undo_is_refused_not_applied_elsewhere(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine", mode="tabletop")
    asked = play_to_a_table(c, cid, links)
    act_first(c, cid, links)
    view = view_of(c, cid, links["organiser"])
    boss = auth(links["organiser"])
    preview = c.get(f"/api/campaigns/{cid}/undo?count=1", headers=boss).json()
    assert c.post(f"/api/campaigns/{cid}/undo", headers=boss, json={"count": 1, "seq": preview["seq"]}).is_success
    stale = {"battle": asked["battle"], "attacker_vp": 2, "defender_vp": 2, "seq": view["seq"], "epoch": view["epoch"]}
    r = c.post(f"/api/campaigns/{cid}/decide", headers=boss, json=stale)
    assert r.status_code == 409 and "undid" in r.json()["detail"]
    r = c.post(f"/api/campaigns/{cid}/act", headers=auth(links["Allies general"]),
               json={"action": "pass", "seq": view["seq"], "epoch": view["epoch"]})
    assert r.status_code == 409


def test_a_retried_key_after_an_undo_acts_afresh(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c)
    secret = next(s for label, s in links.items() if label.endswith("general") and view_of(c, cid, s)["legal"])
    action = view_of(c, cid, secret)["legal"][0]
    first = c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"action": action, "key": "once"}).json()
    boss = auth(links["organiser"])
    preview = c.get(f"/api/campaigns/{cid}/undo?count=1", headers=boss).json()
    c.post(f"/api/campaigns/{cid}/undo", headers=boss, json={"count": 1, "seq": preview["seq"]})
    again = c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"action": action, "key": "once"})
    assert again.status_code == 200 and again.json()["seq"] == first["seq"]
    log = c.get(f"/api/campaigns/{cid}/log", headers=boss).json()["log"]
    assert len(log) == again.json()["seq"]  # applied again, not just answered from memory


def test_waiting_results_travel_with_an_export(url: str, tmp_path: Path) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine", mode="tabletop")
    asked = play_to_a_table(c, cid, links)
    reporter = links[f"{SIDE_NAMES[asked['attacker']]} commanders"]
    assert c.post(f"/api/campaigns/{cid}/report", headers=auth(reporter),
                  json={"battle": asked["battle"], "attacker_vp": 5, "defender_vp": 2}).is_success
    exported = c.get(f"/api/campaigns/{cid}/export", headers=auth(links["organiser"])).json()
    assert exported["club"]["waiting"] == [{"battle": asked["battle"], "attacker_vp": 5, "defender_vp": 2,
                                            "by_side": asked["attacker"], "disputed": False}]
    other = client(f"sqlite:///{tmp_path / 'other.db'}")
    made = other.post("/api/campaigns/import", content=json.dumps(exported).encode())
    assert made.status_code == 201, made.text
    copy = {link["label"]: link["secret"] for link in made.json()["links"]}
    confirmer = copy[f"{SIDE_NAMES[asked['defender']]} commanders"]
    waiting = next(r for r in view_of(other, made.json()["id"], confirmer)["results"] if r["battle"] == asked["battle"])
    assert waiting["pending"]["attacker_vp"] == 5 and waiting["can_confirm"]
    r = other.post(f"/api/campaigns/{made.json()['id']}/confirm", headers=auth(confirmer),
                   json={"battle": asked["battle"]})
    assert r.status_code == 200 and r.json()["applied"][0] == f"report {asked['battle']} 5 2"
    exported["club"]["waiting"][0]["battle"] = 77
    r = other.post("/api/campaigns/import", content=json.dumps(exported).encode())
    assert r.status_code == 422 and "club.waiting[0]" in r.json()["detail"]


def test_links_cannot_be_multiplied_to_act_faster(url: str) -> None:
    from warroom.server.guards import ServerSettings
    from warroom.server.service import MAX_LIVE_LINKS

    c = client(url, ServerSettings(act_limit="1000/minute", campaign_limit="6/minute"))
    cid, links = new_campaign(c)
    boss = auth(links["organiser"])
    minted = [c.post(f"/api/campaigns/{cid}/tokens", headers=boss, json={"role": "organiser"}) for _ in range(6)]
    assert [m.status_code for m in minted] == [201] * 6
    extra = auth(minted[-1].json()["secret"])
    r = c.post(f"/api/campaigns/{cid}/tokens", headers=extra, json={"role": "organiser"})
    assert r.status_code == 429 and "this campaign" in r.json()["detail"]  # a fresh link, but the campaign's limit
    c = client(url)
    cid, links = new_campaign(c)
    boss = auth(links["organiser"])
    codes = [c.post(f"/api/campaigns/{cid}/tokens", headers=boss, json={"role": "general", "side": "axis"}).status_code
             for _ in range(MAX_LIVE_LINKS - 5 + 1)]
    assert codes[:-1] == [201] * (MAX_LIVE_LINKS - 5) and codes[-1] == 409


def test_a_campaign_uploaded_before_the_stricter_checks_still_opens(url: str) -> None:
    """Side ids such as "Allies" were accepted before issue 11 and are refused for new uploads now; a campaign
    kept with one still opens, plays and exports."""
    campaigns = service_of(url)
    toml = caen_as_one_file("old_club").replace('"allies"', '"Allies"')
    c = client(url)
    assert c.post("/api/campaigns", json={"scenario_toml": toml}).status_code == 422  # new uploads: refused
    from warroom.rulesets.firestorm import new_game
    from warroom.server.service import uploaded_scenario

    sc = uploaded_scenario(toml)
    cid, invitations = campaigns._start(sc, "kept", {"mode": "gw"}, toml, [("organiser", "")], new_game(sc, {}))
    boss = next(i.secret for i in invitations)
    assert c.get(f"/api/campaigns/{cid}/view", headers=auth(boss)).status_code == 200
    assert c.get(f"/api/campaigns/{cid}/export", headers=auth(boss)).json()["club"]["scenario_toml"] == toml


def test_a_result_kept_from_before_the_upgrade_goes_with_any_undo(url: str) -> None:
    """Migration 0005 cannot tell which trip to the table an older waiting result answers (`asked_at` is
    unknown): it still waits where it waited, but an undo discards it rather than guess."""
    from sqlalchemy import update

    from warroom.server import db

    c = client(url)
    cid, links, asked = a_report_at_a_table(c, 6, 0)
    act_first(c, cid, links)
    campaigns = c.app.state.campaigns  # type: ignore[attr-defined]
    with campaigns.store.engine.begin() as conn:
        conn.execute(update(db.pending_result).values(asked_at=None))
    confirmer = links[f"{SIDE_NAMES[asked['defender']]} commanders"]
    assert next(r for r in view_of(c, cid, confirmer)["results"] if r["battle"] == asked["battle"])["can_confirm"]
    preview = c.get(f"/api/campaigns/{cid}/undo?count=1", headers=auth(links["organiser"])).json()
    assert [d["battle"] for d in preview["discarded"]] == [asked["battle"]] and preview["kept"] == []


def test_a_confirmation_names_the_result_it_saw(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, scenario="lorraine", mode="tabletop")
    asked = play_to_a_table(c, cid, links)
    no = asked["battle"]
    reporter = links[f"{SIDE_NAMES[asked['attacker']]} commanders"]
    confirmer = auth(links[f"{SIDE_NAMES[asked['defender']]} commanders"])
    c.post(f"/api/campaigns/{cid}/report", headers=auth(reporter),
           json={"battle": no, "attacker_vp": 0, "defender_vp": 6})
    for path in ("confirm", "dispute"):
        r = c.post(f"/api/campaigns/{cid}/{path}", headers=confirmer,
                   json={"battle": no, "attacker_vp": 6, "defender_vp": 0})  # what an older page showed
        assert r.status_code == 409 and "not the one you saw" in r.json()["detail"]
        r = c.post(f"/api/campaigns/{cid}/{path}", headers=confirmer, json={"battle": no, "epoch": 5})
        assert r.status_code == 409
    page = browser_on(c)  # the confirmer's page sends what it shows: the waiting result and its epoch
    page.get("/join/" + links[f"{SIDE_NAMES[asked['defender']]} commanders"])
    html = page.get(f"/c/{cid}").text
    assert f'data-battle="{no}" data-attacker="0"' in html and 'data-defender="6"' in html
    script = page.get("/static/play.js").text
    assert 'post("confirm", showing(box))' in script and "epoch: shown().epoch" in script
    r = c.post(f"/api/campaigns/{cid}/confirm", headers=confirmer,
               json={"battle": no, "attacker_vp": 0, "defender_vp": 6, "epoch": 0})
    assert r.status_code == 200 and r.json()["applied"][0] == f"report {no} 0 6"


def test_a_decision_and_a_report_retried_with_their_key_apply_once(url: str) -> None:
    c = client(url)
    cid, links = new_campaign(c, mode="tabletop")
    boss = auth(links["organiser"])
    body = {"battle": 0, "attacker_vp": 6, "defender_vp": 0, "key": "decide-once"}
    first = c.post(f"/api/campaigns/{cid}/decide", headers=boss, json=body)
    again = c.post(f"/api/campaigns/{cid}/decide", headers=boss, json=body)
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    log = [e["action"] for e in c.get(f"/api/campaigns/{cid}/log", headers=boss).json()["log"]]
    assert log.count("report 6 0") == 1
    asked = view_of(c, cid, links["organiser"])["results"]
    if asked and not asked[0]["battle"]:
        reporter = auth(links["Allies commanders"])
        report = {"battle": 0, "attacker_vp": 2, "defender_vp": 2, "key": "report-once"}
        first = c.post(f"/api/campaigns/{cid}/report", headers=reporter, json=report)
        again = c.post(f"/api/campaigns/{cid}/report", headers=reporter, json=report)
        assert first.status_code == again.status_code == 200 and first.json() == again.json()


@pytest.mark.every_database
def test_an_undo_is_tied_to_the_epoch_it_previewed(url: str) -> None:
    from warroom.server.store import ConflictError

    campaigns = service_of(url)
    cid, _ = campaigns.create("caen")
    row = campaigns.store.campaign(cid)
    with pytest.raises(ConflictError):
        campaigns.store.truncate(cid, row.seq, row.epoch + 1, 0)
    campaigns.store.truncate(cid, row.seq, row.epoch, row.seq)
    assert campaigns.store.campaign(cid).epoch == row.epoch + 1


@pytest.mark.every_database
def test_the_link_cap_holds_under_parallel_requests(url: str) -> None:
    import threading

    from warroom.server.service import MAX_LIVE_LINKS
    from warroom.server.store import ConflictError

    campaigns = service_of(url)
    cid, invitations = campaigns.create("caen")
    boss = campaigns.store.grant(next(i.secret for i in invitations if i.role == "organiser"))
    outcomes: list[str] = []

    def issue() -> None:
        try:
            campaigns.reissue(boss, "general", "axis")
            outcomes.append("issued")
        except ConflictError:
            outcomes.append("refused")

    threads = [threading.Thread(target=issue) for _ in range(MAX_LIVE_LINKS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(campaigns.store.tokens(cid)) == MAX_LIVE_LINKS
    assert outcomes.count("issued") == MAX_LIVE_LINKS - len(invitations)
    with pytest.raises(Exception, match="commanders belong to one side"):
        campaigns.reissue(boss, "commander", "*")


@pytest.mark.every_database
def test_an_import_that_fails_half_way_leaves_nothing_behind(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from sqlalchemy import exc as sa_exc

    c = client(url)
    cid, links, _ = a_report_at_a_table(c, 5, 2)
    exported = c.get(f"/api/campaigns/{cid}/export", headers=auth(links["organiser"])).content
    store = c.app.state.campaigns.store  # type: ignore[attr-defined]
    before = store.campaign_ids()

    def locked(*_: Any) -> None:
        raise sa_exc.OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(store, "add_pending", locked)
    r = c.post("/api/campaigns/import", content=exported)
    assert r.status_code == 503 and store.campaign_ids() == before
