"""Kampen om Norge on the club server (issue 13, part 6): links per player, the server's bot, the organiser's
tools, and what a two-player game's Norway-and-Allies player sees."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support import auth, client

from warroom.core.state import CHANCE
from warroom.rulesets.kampen.state import KampenState
from warroom.server.service import Campaigns


@pytest.fixture()
def url(database_url: str) -> str:
    return database_url


def new_game(c: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    made = c.post("/api/campaigns", json={"scenario": "kampen", **body})
    assert made.status_code == 201, made.text
    return made.json()["id"], {link["label"]: link["secret"] for link in made.json()["links"]}


def position(c: TestClient, cid: str) -> KampenState:
    campaigns: Campaigns = c.app.state.campaigns  # type: ignore[attr-defined]
    st = campaigns.state(cid)
    assert isinstance(st, KampenState)
    return st


def test_each_player_gets_one_link_and_no_commanders(url: str) -> None:
    c = client(url)
    _, two = new_game(c)
    assert set(two) == {"organiser", "Germany player", "Norway and the Allies player"}
    _, three = new_game(c, params={"seats": 3}, hotseat=True)
    assert set(three) == {"organiser", "Germany player", "Norway player", "The Allies player",
                          "every side (hot-seat)"}
    cid, links = new_game(c)
    boss = auth(links["organiser"])
    for body, why in (({"role": "commander", "side": "germany"}, "Kampen om Norge has no commanders"),
                      ({"role": "general", "side": "allies"},
                       "in this game the Allies are played by Norway's player")):
        r = c.post(f"/api/campaigns/{cid}/tokens", headers=boss, json=body)
        assert r.status_code == 422 and why in r.json()["detail"], r.text
    for params, why in (({"seats": 4}, "seats"), ({"advanced": "yes"}, "advanced"), ({"mode": "gw"}, "mode")):
        r = c.post("/api/campaigns", json={"scenario": "kampen", "params": params})
        assert r.status_code == 422 and why in r.json()["detail"], r.text
    r = c.post("/api/campaigns", json={"scenario": "kampen", "bots": {"allies": "heuristic"}})
    assert r.status_code == 422 and "sides with a player (germany, norway)" in r.json()["detail"]
    browser = TestClient(c.app, raise_server_exceptions=False)
    page = browser.post("/new", data={"scenario": "kampen", "players": "5"})
    assert page.status_code == 422 and "seats" in page.text
    page = browser.post("/new", data={"scenario": "kampen", "players": "2", "bot_allies": "heuristic"})
    assert page.status_code == 422 and "choose it for Norway" in page.text
    page = browser.post("/new", data={"scenario": "kampen", "players": "2", "bot_norway": "heuristic",
                                      "bot_allies": "heuristic"})
    assert page.status_code == 201
    campaigns: Campaigns = c.app.state.campaigns  # type: ignore[attr-defined]
    made = campaigns.store.grant(re.findall(r"/join/([\w-]+)", page.text)[0]).campaign_id
    assert campaigns.store.campaign(made).params["bots"] == {"norway": "heuristic"}, "Norway's bot plays both"


def test_a_player_acts_only_for_their_own_countries(url: str) -> None:
    c = client(url)
    cid, links = new_game(c)
    st = position(c, cid)
    assert st.current_player() == "germany"
    move = st.legal_actions()[0].to_str()
    r = c.post(f"/api/campaigns/{cid}/act", headers=auth(links["Norway and the Allies player"]),
               json={"action": move})
    assert r.status_code == 403 and r.json()["detail"] == "it is Germany's decision, not Norway's"
    for path in ("confirm", "dispute"):
        r = c.post(f"/api/campaigns/{cid}/{path}", headers=auth(links["Germany player"]))
        assert r.status_code == 409 and "Kampen om Norge has no battles at the table" in r.json()["detail"]
    assert c.get(f"/c/{cid}/battle", headers=auth(links["Germany player"])).status_code in (401, 404)


def test_an_undo_with_a_bot_for_norway_and_the_allies_takes_back_a_persons_decision(url: str) -> None:
    """Two players, the bot holding Norway and the Allies: the decisions the organiser can undo are Germany's
    alone (the bot's answers go with them), and after the undo Germany decides again."""
    c = client(url)
    cid, links = new_game(c, bots={"norway": "heuristic"})
    germany, boss = auth(links["Germany player"]), auth(links["organiser"])
    rng = random.Random(3)
    while not any(e.side == "allies" for e in position(c, cid).log):
        st = position(c, cid)
        assert st.current_player() == "germany", "the bot answers at once, for Norway and the Allies"
        r = c.post(f"/api/campaigns/{cid}/act", headers=germany,
                   json={"action": rng.choice(list(st.legal_actions())).to_str()})
        assert r.status_code == 200, r.text
    preview = c.get(f"/api/campaigns/{cid}/undo?count=1", headers=boss).json()
    assert preview["undone"][0]["side"] == "germany"
    r = c.post(f"/api/campaigns/{cid}/undo", headers=boss,
               json={"count": 1, "seq": preview["seq"], "waiting": preview["waiting"], "epoch": preview["epoch"]})
    assert r.status_code == 200, r.text
    st = position(c, cid)
    assert st.current_player() == "germany" and len(st.log) == preview["keep"]
    r = c.post(f"/api/campaigns/{cid}/act", headers=germany, json={"action": st.legal_actions()[0].to_str()})
    assert r.status_code == 200, r.text


def test_with_two_players_norways_player_sees_the_allied_cards_and_ships_too(url: str) -> None:
    c = client(url)
    cid, links = new_game(c, params={"advanced": True})
    player = auth(links["Norway and the Allies player"])
    rng = random.Random(7)
    for _ in range(400):  # through the 9 April deployment, until Allied ships lie at sea
        st = position(c, cid)
        if any(card.owner == "allies" for _s, card in st.fleet.all()) and st.current_player() == "norway":
            break
        who = st.current_player()
        assert who != CHANCE
        seat = "Germany player" if who == "germany" else "Norway and the Allies player"
        r = c.post(f"/api/campaigns/{cid}/act", headers=auth(links[seat]),
                   json={"action": rng.choice(list(st.legal_actions())).to_str()})
        assert r.status_code == 200, r.text
    st = position(c, cid)
    view = c.get(f"/api/campaigns/{cid}/view", headers=player).json()
    assert view["hands"]["norway"] == st.hands["norway"] and view["hands"]["allies"] == st.hands["allies"]
    allied = {card.key for _s, card in st.fleet.all() if card.owner == "allies"}
    named = {e["ship"] for cards in view["fleet"].values() for e in cards if e["owner"] == "allies"}
    assert allied and allied <= named, "the Allied ships at sea are named for the player who holds them"
    german = c.get(f"/api/campaigns/{cid}/view", headers=auth(links["Germany player"])).json()
    assert isinstance(german["hands"]["allies"], int)
    assert not {e["ship"] for cards in german["fleet"].values() for e in cards if e["owner"] == "allies"} - {None}


def test_an_import_with_a_waiting_tabletop_result_is_refused(url: str) -> None:
    c = client(url)
    cid, links = new_game(c)
    export = c.get(f"/api/campaigns/{cid}/export", headers=auth(links["organiser"])).json()
    export["club"]["waiting"] = [{"battle": 1, "attacker_vp": 4, "defender_vp": 2, "by_side": "germany"}]
    r = c.post("/api/campaigns/import", json=export)
    assert r.status_code == 422 and "Kampen om Norge has no battles at the table" in r.json()["detail"], r.text
