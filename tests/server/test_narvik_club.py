"""Narvik on the club server: a link per side, the hex map as SVG drawn once per position and the same for every
link (the game hides nothing), moves through the API, and refusals that name the problem."""

from __future__ import annotations

from typing import Any

import pytest
from depth import deep
from fastapi.testclient import TestClient
from support import auth, client

import warroom.server.narvik_board as board
from warroom.rulesets.narvik.describe import unit_words
from warroom.rulesets.narvik.state import NarvikState
from warroom.server.service import Campaigns


@pytest.fixture()
def url(database_url: str) -> str:
    return database_url


def new_game(c: TestClient) -> tuple[str, dict[str, str]]:
    made = c.post("/api/campaigns", json={"scenario": "narvik"})
    assert made.status_code == 201, made.text
    return made.json()["id"], {link["label"]: link["secret"] for link in made.json()["links"]}


def position(c: TestClient, cid: str) -> NarvikState:
    campaigns: Campaigns = c.app.state.campaigns  # type: ignore[attr-defined]
    st = campaigns.state(cid)
    assert isinstance(st, NarvikState)
    return st


def svg_of(page: str) -> str:
    return page[page.index("<svg"):page.index("</svg>") + 6]


def test_each_side_gets_a_link_and_every_link_sees_the_same_map(url: str) -> None:
    c = client(url)
    cid, links = new_game(c)
    assert set(links) == {"organiser", "The Germans player", "The Allies player"}
    pages = {label: c.get(f"/c/{cid}", headers=auth(secret)) for label, secret in links.items()}
    assert all(p.status_code == 200 for p in pages.values())
    maps = {svg_of(p.text) for p in pages.values()}
    assert len(maps) == 1 and 'class="warroom-svg narvik"' in maps.pop()
    german = pages["The Germans player"].text
    assert "Turn 1 (9–12 April 1940)" in german and "Your decision" in german
    assert "Waiting for the Germans" in pages["The Allies player"].text


def test_the_map_is_drawn_once_per_position(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    c = client(url)
    cid, links = new_game(c)
    drawn: list[int] = []
    real = board.board_svg

    def counted(st: NarvikState, view: Any) -> str:
        drawn.append(len(st.log))
        return real(st, view)

    monkeypatch.setattr(board, "board_svg", counted)
    for secret in links.values():
        assert c.get(f"/c/{cid}", headers=auth(secret)).status_code == 200
    assert drawn == [0]
    german = links["The Germans player"]
    view = c.get(f"/api/campaigns/{cid}/view", headers=auth(german)).json()
    move = next(a for a in view["legal"] if a.startswith("move "))
    r = c.post(f"/api/campaigns/{cid}/act", headers=auth(german), json={"action": move, "seq": view["seq"]})
    assert r.status_code == 200, r.text
    _, unit, hid = move.split()
    assert position(c, cid).pos[unit] == hid
    page = c.get(f"/c/{cid}", headers=auth(links["organiser"])).text
    assert drawn == [0, 1] and f'data-area="{hid}"' in svg_of(page)


def test_moves_come_as_data_for_the_map_each_one_a_legal_action_and_every_move_once(url: str) -> None:
    import json
    import re

    c = client(url)
    cid, links = new_game(c)
    german = c.get(f"/c/{cid}", headers=auth(links["The Germans player"])).text
    st = position(c, cid)
    legal = [a.to_str() for a in st.legal_actions()]
    moves = [a for a in legal if a.split()[0] in ("move", "rail", "truck")]
    assert len(moves) > 1000  # the Germans' first move: far too many for a button each
    data = json.loads(re.search(r'<script type="application/json" id="orders-data">(.*?)</script>', german, re.S)
                      [1])  # type: ignore[index]
    built = [f"{w['prefix']} {h}" for u in data["units"] for w in u["ways"] for h in w["to"]]
    assert sorted(built) == sorted(moves)  # each move once, each a legal action
    for u in data["units"]:
        assert u["hex"] == st.pos[u["id"]] and u["words"].endswith(")")
        assert all(w["prefix"].split()[-1] == u["id"] for w in u["ways"])  # the unit moved (or carried) is its own
        assert {w["how"] for w in u["ways"]} <= {"move", "by rail"} | {f"in {n}" for n in
                                                                       (unit_words(st, t) for t in st.pos)}
        assert data["at"][u["hex"]] == [round(v, 2) for v in board.at(u["hex"])]
    assert set(data["names"]) == set(data["at"]) and all(n == st.hex_name(h) for h, n in data["names"].items())
    buttons = re.findall(r'data-action="([^"]+)"', german)
    assert "end" in buttons and not [b for b in buttons if b.split()[0] in ("move", "rail", "truck")]
    assert len(german) < 150_000, len(german)  # a button per move made it 225 KB
    movers = re.findall(r'<option value="([^"]+)">', german)
    assert sorted(movers) == sorted(u["id"] for u in data["units"])
    allied = c.get(f"/c/{cid}", headers=auth(links["The Allies player"])).text
    assert 'id="orders-data"' not in allied and 'id="mover"' not in allied  # not their decision


def test_moves_the_rules_refuse_are_answered_with_the_reason(url: str) -> None:
    c = client(url)
    cid, links = new_game(c)
    german, allied = links["The Germans player"], links["The Allies player"]
    seq = c.get(f"/api/campaigns/{cid}/view", headers=auth(german)).json()["seq"]
    cases = [(german, "move ger_139_1 0101", "is sea: no ground unit enters it"),
             (german, "move nosuch 1844", "there is no unit 'nosuch'"),
             (german, "fly away", "cannot read 'fly away'"),
             (allied, "end", "it is the Germans' decision, not the Allies'")]
    for secret, action, words in cases:
        r = c.post(f"/api/campaigns/{cid}/act", headers=auth(secret), json={"action": action, "seq": seq})
        assert r.status_code in (400, 403, 409, 422), (action, r.text)
        assert words in r.text, (action, r.text)
    assert position(c, cid).log == []


GAMES = deep(1)
END_CHANCE = 0.6
"""The whole-game test's German player ends its part of a phase with this chance whenever it may (else a random
legal action). The game to its last turn and result is the point, not how many moves a turn the Germans make: at
0.6 a game is some 180 German actions through the API (at 0.3 it was some 280, and about a third more CPU),
still all 15 turns played to a result, each German decision through its view and its act, the bot answering
every Allied decision. A deeper run plays `deep(1)` such games, of different seeds (two already make more actions
than one game at 0.3 did)."""


def test_a_whole_game_is_played_on_the_server_against_its_bot(url: str) -> None:
    import random

    from warroom.server.guards import ServerSettings

    # a game is some hundreds of the German player's actions in well under a minute: more than the default
    # rate limit allows a link (the server's dice, keyed per campaign, make each game a different length)
    c = client(url, ServerSettings(act_limit="1000000/minute", campaign_limit="1000000/minute"))
    for seed in range(1, GAMES + 1):
        made = c.post("/api/campaigns", json={"scenario": "narvik", "bots": {"allied": "random"}})
        assert made.status_code == 201, made.text
        cid = made.json()["id"]
        german = next(link["secret"] for link in made.json()["links"] if link["side"] == "german")
        rng = random.Random(seed)
        for _ in range(2000):
            view = c.get(f"/api/campaigns/{cid}/view", headers=auth(german)).json()
            if view["terminal"]:
                break
            assert view["legal"], "the server's bot leaves a decision to the person only when it is theirs"
            action = "end" if "end" in view["legal"] and rng.random() < END_CHANCE else rng.choice(view["legal"])
            r = c.post(f"/api/campaigns/{cid}/act", headers=auth(german),
                       json={"action": action, "seq": view["seq"]})
            assert r.status_code == 200, r.text
        st = position(c, cid)
        assert st.is_terminal() and st.game_turn == 15 and st.result in {label for _, label in st.sc.levels}
        page = c.get(f"/c/{cid}", headers=auth(german)).text
        assert "Game over" in page and st.result in page


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_place_names_never_sit_under_a_token_or_another_name(seed: int) -> None:
    import random
    from itertools import combinations

    from warroom.core.state import CHANCE
    from warroom.rulesets.narvik import new_game
    from warroom.server.territory import overlaps

    st = new_game()
    rng = random.Random(seed)
    checked = 0
    for stop in (1, 4, 8, 15):
        while st.game_turn < stop and not st.is_terminal():
            st.apply_action(st.chance_dice().sample(rng) if st.current_player() == CHANCE else st.random_action(rng))
        view = st.view(None)
        tokens = board.token_boxes(view)
        width, height = board.size(st.sc)
        labels = board.label_boxes(st.sc, tokens, width, height)
        assert len(labels) >= 20
        for name, box in labels.items():
            assert not any(overlaps(box, t) for t in tokens.values()), (stop, name)
        for (a, box_a), (b, box_b) in combinations(labels.items(), 2):
            assert not overlaps(box_a, box_b), (stop, a, b)
        checked += 1
    assert checked == 4
