"""Requests at the same moment, against a real server over loopback (issue 4, reliability): of 50 reports,
confirmations or actions sent at once exactly one is applied and 49 get a clear conflict, and the log
replays exactly. Runs on SQLite and, where a server is available, PostgreSQL: concurrent writers are where the
engines differ most (SQLite's one write lock, PostgreSQL's row locks)."""

from __future__ import annotations

import json
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from warroom.core.game import replay
from warroom.core.log import GameRecord
from warroom.rulesets.firestorm import FirestormState, new_game
from warroom.scenarios import load_scenario
from warroom.server.local import call, play_to_a_table, running

pytestmark = pytest.mark.every_database
CLIENTS = 50
SIDE_NAMES = {"allies": "Allies", "axis": "Germans"}


@pytest.fixture()
def base(database_url: str) -> Iterator[str]:
    with running(database_url) as url:
        yield url


def at_once(n: int, send: Callable[[int], tuple[int, Any]]) -> list[tuple[int, Any]]:
    """`n` requests released together by a barrier, each from its own thread."""
    barrier = threading.Barrier(n)

    def one(i: int) -> tuple[int, Any]:
        barrier.wait()
        return send(i)

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(one, range(n)))


def new_campaign(base: str, **options: Any) -> tuple[str, dict[str, str]]:
    status, body = call(base, "POST", "/api/campaigns", None, {"scenario": "caen", **options})
    assert status == 201, body
    return body["id"], {link["label"]: link["secret"] for link in body["links"]}


def assert_replays(base: str, cid: str, organiser: str) -> GameRecord:
    status, saved = call(base, "GET", f"/api/campaigns/{cid}/export", organiser)
    assert status == 200
    record = GameRecord.from_json(json.dumps(saved))
    sc = load_scenario(record.scenario)
    again = replay(record, lambda: new_game(sc, dict(record.params)))
    assert isinstance(again, FirestormState)
    _, view = call(base, "GET", f"/api/campaigns/{cid}/view", organiser)
    assert view["seq"] == len(record.log)
    assert {a["id"]: a["controller"] for a in view["areas"]} == again.control
    assert view["vp"] == again.view(None)["vp"]
    return record


def test_fifty_reports_of_one_battle_keep_one_and_fifty_confirmations_apply_it_once(base: str) -> None:
    cid, links = new_campaign(base, mode="tabletop")
    battle = play_to_a_table(base, cid, links)
    no = battle["battle"]
    reporter = links[f"{SIDE_NAMES[battle['attacker']]} commanders"]
    confirmer = links[f"{SIDE_NAMES[battle['defender']]} commanders"]
    _, before = call(base, "GET", f"/api/campaigns/{cid}/view", links["organiser"])

    reports = at_once(CLIENTS, lambda i: call(base, "POST", f"/api/campaigns/{cid}/report", reporter, {
        "battle": no, "attacker_vp": 1 + i % 6, "defender_vp": 1, "key": uuid.uuid4().hex}))
    assert Counter(code for code, _ in reports) == {200: 1, 409: CLIENTS - 1}, reports
    kept = next(body for code, body in reports if code == 200)
    assert all("already reported" in body["detail"] for code, body in reports if code == 409)

    confirms = at_once(CLIENTS, lambda i: call(base, "POST", f"/api/campaigns/{cid}/confirm", confirmer,
                                               {"battle": no}))
    assert Counter(code for code, _ in confirms) == {200: 1, 409: CLIENTS - 1}, confirms
    assert all("reload" in body["detail"] for code, body in confirms if code == 409)
    record = assert_replays(base, cid, links["organiser"])
    applied = [e.action for e in record.log[before["seq"]:] if e.action.startswith(f"report {no} ")]
    assert applied == [f"report {no} {kept['pending']['attacker_vp']} 1"], "the kept result, applied once"


def test_fifty_identical_decisions_at_once_apply_one(base: str) -> None:
    cid, links = new_campaign(base)
    for label, secret in links.items():
        if label.endswith("general"):
            _, view = call(base, "GET", f"/api/campaigns/{cid}/view", secret)
            if view["legal"]:
                break
    action, seq = view["legal"][0], view["seq"]
    answers = at_once(CLIENTS, lambda i: call(base, "POST", f"/api/campaigns/{cid}/act", secret,
                                              {"action": action, "seq": seq, "key": uuid.uuid4().hex}))
    assert Counter(code for code, _ in answers) == {200: 1, 409: CLIENTS - 1}, answers
    assert all("changed" in body["detail"] for code, body in answers if code == 409)
    record = assert_replays(base, cid, links["organiser"])
    assert sum(1 for e in record.log[seq:] if e.action == action and not e.automatic) == 1


def test_fifty_hot_seat_results_of_one_battle_apply_one(base: str) -> None:
    status, body = call(base, "POST", "/api/campaigns", None, {"scenario": "caen", "mode": "tabletop",
                                                               "hotseat": True})
    assert status == 201
    cid = body["id"]
    links = {link["label"]: link["secret"] for link in body["links"]}
    everyone = links.pop("every side (hot-seat)")
    battle = play_to_a_table(base, cid, links)
    no = battle["battle"]
    answers = at_once(CLIENTS, lambda i: call(base, "POST", f"/api/campaigns/{cid}/report", everyone, {
        "battle": no, "attacker_vp": 4, "defender_vp": 2, "key": uuid.uuid4().hex}))
    assert Counter(code for code, _ in answers) == {200: 1, 409: CLIENTS - 1}, answers
    record = assert_replays(base, cid, links["organiser"])
    assert sum(1 for e in record.log if e.action == f"report {no} 4 2") == 1


def test_fifty_confirmations_of_the_result_asked_for_now_apply_it_once(base: str) -> None:
    """Caen's D-Day rolls are reported in turn (battle 0): confirmations sent together apply one result, and
    never answer the next question with it."""
    cid, links = new_campaign(base, mode="tabletop")
    _, view = call(base, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
    assert [r["battle"] for r in view["results"]] == [0], "Operation Tonga is asked for first"
    status, _ = call(base, "POST", f"/api/campaigns/{cid}/report", links["Allies commanders"],
                     {"attacker_vp": 5, "defender_vp": 1})
    assert status == 200
    confirmers = [links["Germans commanders"], links["Germans general"]]
    answers = at_once(CLIENTS, lambda i: call(base, "POST", f"/api/campaigns/{cid}/confirm", confirmers[i % 2],
                                              {"battle": 0}))
    assert Counter(code for code, _ in answers) == {200: 1, 409: CLIENTS - 1}, answers
    record = assert_replays(base, cid, links["organiser"])
    assert [e.action for e in record.log if e.side == "report"] == ["report 5 1"]
    _, view = call(base, "GET", f"/api/campaigns/{cid}/view", links["organiser"])
    hot = at_once(CLIENTS, lambda i: call(base, "POST", f"/api/campaigns/{cid}/decide", links["organiser"],
                                          {"battle": 0, "attacker_vp": 2, "defender_vp": 2, "seq": view["seq"]}))
    assert Counter(code for code, _ in hot) == {200: 1, 409: CLIENTS - 1}, hot
    record = assert_replays(base, cid, links["organiser"])
    assert [e.action for e in record.log if e.side == "report"] == ["report 5 1", "report 2 2"]
