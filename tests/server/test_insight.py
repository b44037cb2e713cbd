"""The advisor, the forecast and the analysis on the club server (`server.insight`, `server.insight_routes`): who
may ask, the organiser's switches, answers computed in a worker process, and requests that never wait for one."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support import auth, caen_as_one_file, client, new_campaign

from warroom.sim.runner import play_one

SMALL = {"advice": 32, "forecast": 4, "analysis": 2}
"""Rollouts for the tests: enough to answer, quick on the pure-Python engine. These tests are about who may ask,
the switches, the workers and the jobs' lifecycle, not about how good an answer is (tests/unit/test_advisor.py
and its kin judge that). Advice: one batch a plan (`ai.advisor.BATCH`, 32), every plan still played, ranked and
shown. A forecast: 4 rollouts a line, still every line of every kind of result a battle at the table may get (the
tabletop test's 49). An analysis: 2 a position, the fewest the server's worker plays. The larger sizes these had
(advice 64, forecast 12) only kept the worker processes busy longer: some 5 CPU-s of this file, for answers of
the same shape."""


@pytest.fixture()
def c(tmp_path: Path) -> Iterator[TestClient]:
    with client(f"sqlite:///{tmp_path / 'warroom.db'}") as test_client:  # the lifespan stops the workers
        test_client.app.state.insight.sizes = dict(SMALL)  # type: ignore[attr-defined]
        test_client.app.state.insight.nice = 0  # type: ignore[attr-defined]  # the suite's other workers: no starving
        yield test_client


def finished(c: TestClient, path: str, headers: dict[str, str], most: float = 180.0) -> dict[str, Any]:
    """Poll a job until it is done; its last status."""
    end = time.monotonic() + most
    while True:
        r = c.get(path, headers=headers)
        assert r.status_code == 200, r.text
        job: dict[str, Any] = r.json()
        assert job["status"] in ("running", "done"), job
        if job["status"] == "done":
            return job
        assert time.monotonic() < end, f"{path} did not finish: {job}"
        time.sleep(0.2)


def lorraine(c: TestClient) -> tuple[str, dict[str, str]]:
    """A Lorraine campaign whose Germans are the server's bot: the Allies are to act."""
    return new_campaign(c, "lorraine", bots={"axis": "heuristic"})


def test_a_sides_general_gets_its_own_advice_and_nobody_else_does(c: TestClient) -> None:
    cid, links = lorraine(c)
    allies, axis, organiser = (auth(links[k]) for k in ("Allies general", "Germans general", "organiser"))
    path = f"/api/campaigns/{cid}/advice"
    assert c.get(path, headers=organiser).status_code == 403
    r = c.get(path + "?side=axis", headers=allies)
    assert r.status_code == 403 and "own side" in r.json()["detail"]
    r = c.get(path, headers=axis)
    assert r.status_code == 409 and "not your decision" in r.json()["detail"]
    assert c.get(path).status_code == 401
    job = finished(c, path, allies)
    advice = job["result"]
    assert advice["side"] == "allies" and advice["candidates"]
    legal = c.get(f"/api/campaigns/{cid}/view", headers=allies).json()["legal"]
    assert advice["candidates"][0]["plan"][0] in legal
    assert c.get(path, headers=allies).json() == job  # asked again: the same answer, worked out once
    panel = c.get(f"/c/{cid}/insight/advice", headers=allies)
    assert panel.status_code == 200 and 'data-status="done"' in panel.text and "the heuristic" in panel.text
    refused = c.get(f"/c/{cid}/insight/advice", headers=axis)
    assert 'data-status="refused"' in refused.text and "not your decision" in refused.text


def test_the_organisers_switches_are_honoured(c: TestClient) -> None:
    cid, links = lorraine(c)
    allies, organiser = auth(links["Allies general"]), auth(links["organiser"])
    switch = f"/api/campaigns/{cid}/switches"
    assert c.post(switch, headers=allies, json={"advisor": False}).status_code == 403
    assert c.post(switch, headers=organiser, json={"advisor": False}).json() == {"advisor": False, "forecast": True}
    r = c.get(f"/api/campaigns/{cid}/advice", headers=allies)
    assert r.status_code == 403 and "switched the plan advisor off" in r.json()["detail"]
    assert 'id="advisor"' not in c.get(f"/c/{cid}", headers=allies).text
    assert c.post(switch, headers=organiser, json={"forecast": False}).json() == {"advisor": False, "forecast": False}
    r = c.get(f"/api/campaigns/{cid}/forecast", headers=allies)
    assert r.status_code == 403 and "hidden the forecast" in r.json()["detail"]
    assert 'id="forecast"' not in c.get(f"/c/{cid}", headers=allies).text
    assert finished(c, f"/api/campaigns/{cid}/forecast", organiser)["result"]["now"]["rollouts"] == SMALL["forecast"]
    assert c.post(switch, headers=organiser, json={"advisor": True, "forecast": True}).json() == {
        "advisor": True, "forecast": True}
    page = c.get(f"/c/{cid}", headers=allies).text
    assert 'id="advisor"' in page and 'id="forecast"' in page
    assert c.post(switch, headers=organiser, json={"advisor": "perhaps"}).status_code == 422
    for loose in ("no", "on", 0, 1.0):  # only true and false switch
        assert c.post(switch, headers=organiser, json={"advisor": loose}).status_code == 422, loose


def test_the_switch_off_comes_before_every_other_answer_and_drops_advice_at_work(c: TestClient) -> None:
    cid, links = lorraine(c)
    allies, axis, organiser = (auth(links[k]) for k in ("Allies general", "Germans general", "organiser"))
    insight = c.app.state.insight  # type: ignore[attr-defined]
    insight.sizes["advice"] = 100_000  # minutes of work
    assert c.get(f"/api/campaigns/{cid}/advice", headers=allies).json()["status"] == "running"
    (job,) = insight.jobs.values()
    switch = f"/api/campaigns/{cid}/switches"
    assert c.post(switch, headers=organiser, json={"advisor": False}).status_code == 200
    end = time.monotonic() + 30
    while not job.future.done():  # dropped: nobody may see its answer
        assert time.monotonic() < end
        time.sleep(0.1)
    assert job not in insight.jobs.values()
    r = c.get(f"/api/campaigns/{cid}/advice?side=axis", headers=axis)  # not their turn either: the switch speaks
    assert r.status_code == 403 and "switched the plan advisor off" in r.json()["detail"]


def test_a_side_that_is_not_in_the_campaign_is_refused_by_name(c: TestClient) -> None:
    cid, links = new_campaign(c, "lorraine", hotseat=True)
    r = c.get(f"/api/campaigns/{cid}/advice?side=zz", headers=auth(links["every side (hot-seat)"]))
    assert r.status_code == 422 and "there is no side 'zz'" in r.json()["detail"], r.text


def test_a_forecast_tells_a_tabletop_battle_what_result_it_needs(c: TestClient) -> None:
    cid, links = new_campaign(c, "caen", mode="tabletop", parallel=False)
    organiser = auth(links["organiser"])
    for _ in range(40):
        view = c.get(f"/api/campaigns/{cid}/view", headers=organiser).json()
        if any(r["battle"] == 0 and "attack" in r["title"] for r in view["results"]):
            break
        acted = False
        for label in ("Allies general", "Germans general"):
            legal = c.get(f"/api/campaigns/{cid}/view", headers=auth(links[label])).json()["legal"]
            if legal:
                assert c.post(f"/api/campaigns/{cid}/act", headers=auth(links[label]),
                              json={"action": legal[0]}).is_success
                acted = True
                break
        if not acted:  # a result the table owes first (a D-Day landing): the organiser settles it
            assert c.post(f"/api/campaigns/{cid}/decide", headers=organiser,
                          json={"attacker_vp": 4, "defender_vp": 2}).is_success
    else:
        raise AssertionError("no battle went to the table")
    job = finished(c, f"/api/campaigns/{cid}/forecast", auth(links["Allies commanders"]))
    needs = job["result"]["needs"]
    assert len(needs) == 1 and needs[0]["battle"] == 0
    assert sum(len(k["results"]) for k in needs[0]["kinds"]) == 49
    page = c.get(f"/c/{cid}/insight/forecast", headers=auth(links["Allies commanders"])).text
    assert "What result do we need?" in page and "4–3" in page


def test_a_campaign_of_an_uploaded_scenario_gets_its_forecast(c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker reads an uploaded scenario from the job (it is in no folder the worker could load it from). What
    the server hands its workers comes from `server.insight_work` (see the next test)."""
    handed: list[str] = []
    submit = ProcessPoolExecutor.submit

    def noted(self: ProcessPoolExecutor, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        handed.append(f"{fn.__module__}.{fn.__qualname__}")
        return submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", noted)
    r = c.post("/api/campaigns", json={"scenario_toml": caen_as_one_file("club_caen"), "mode": "gw"})
    assert r.status_code == 201, r.text
    cid, links = r.json()["id"], {link["label"]: link["secret"] for link in r.json()["links"]}
    job = finished(c, f"/api/campaigns/{cid}/forecast", auth(links["organiser"]))
    assert job["result"]["now"]["rollouts"] == SMALL["forecast"]
    assert handed and set(handed) == {"warroom.server.insight_work.work"}, handed


def test_a_worker_imports_the_engine_and_not_the_web_stack() -> None:
    """What a spawned worker imports to find its job (`server.insight_work`): neither the web framework nor the
    database layer nor the map drawing, which cost every new worker 0.7 CPU-s more."""
    probe = ("import sys, warroom.server.insight_work\n"
             "print(sorted(m for m in ('fastapi', 'starlette', 'sqlalchemy', 'shapely', 'warroom.server.service')"
             " if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr


def finished_campaign(c: TestClient, tmp_path: Path) -> tuple[str, dict[str, str]]:
    """A finished Lorraine game of the heuristic bots, imported."""
    game = play_one("lorraine", 2, {"allies": "heuristic", "axis": "heuristic"})
    save = tmp_path / "game.json"
    game.record(2).save(save)
    r = c.post("/api/campaigns/import", content=save.read_bytes())
    assert r.status_code == 201, r.text
    return r.json()["id"], {link["label"]: link["secret"] for link in r.json()["links"]}


def test_the_analysis_of_a_finished_campaign(c: TestClient, tmp_path: Path) -> None:
    cid, links = finished_campaign(c, tmp_path)
    allies = auth(links["Allies general"])
    running = c.get(f"/c/{cid}/analysis?retry=true", headers=allies).text  # its refresh never asks to retry
    assert f'<meta http-equiv="refresh" content="2; url=/c/{cid}/analysis">' in running or \
        'data-status="done"' in running
    job = finished(c, f"/api/campaigns/{cid}/analysis", allies)
    an = job["result"]
    assert an["camps"] == ["allies", "axis"] and len(an["points"]) > 10
    page = c.get(f"/c/{cid}/analysis", headers=allies).text
    assert 'class="warroom-svg win-graph"' in page and "the decisions that cost the most" in page
    assert "analysis" in c.get(f"/c/{cid}", headers=allies).text
    live, live_links = lorraine(c)
    r = c.get(f"/api/campaigns/{live}/analysis", headers=auth(live_links["Allies general"]))
    assert r.status_code == 409 and "still being played" in r.json()["detail"]
    assert c.get(f"/api/campaigns/{live}/analysis", headers=allies).status_code == 403  # another campaign's link


def p95(c: TestClient, path: str, headers: dict[str, str], n: int = 120, seconds: float = 0.0) -> float:
    """The 95th percentile of `n` requests' times (and as many more as `seconds` take)."""
    times: list[float] = []
    end = time.monotonic() + seconds
    while len(times) < n or time.monotonic() < end:
        start = time.perf_counter()
        assert c.get(path, headers=headers).status_code == 200
        times.append(time.perf_counter() - start)
    return statistics.quantiles(times, n=20)[-1]


def test_a_long_analysis_never_delays_other_requests(c: TestClient, tmp_path: Path) -> None:
    cid, links = finished_campaign(c, tmp_path)
    allies = auth(links["Allies general"])
    view = f"/api/campaigns/{cid}/view"
    idle = p95(c, view, allies)
    c.app.state.insight.sizes["analysis"] = 40  # type: ignore[attr-defined]  # a minute of work: it runs throughout
    started = c.get(f"/api/campaigns/{cid}/analysis", headers=allies).json()
    assert started["status"] == "running"
    end = time.monotonic() + 60
    while c.get(f"/api/campaigns/{cid}/analysis", headers=allies).json()["done"] == 0:  # the worker is up and busy
        assert time.monotonic() < end, "the analysis never got going"
        time.sleep(0.2)
    before = c.get(f"/api/campaigns/{cid}/analysis", headers=allies).json()["done"]
    loaded = p95(c, view, allies, seconds=3.0)
    job = c.get(f"/api/campaigns/{cid}/analysis", headers=allies).json()
    assert job["status"] == "running" and job["done"] > before, job  # it was working all along
    print(json.dumps({"p95_idle_ms": round(idle * 1000, 1), "p95_during_analysis_ms": round(loaded * 1000, 1)}))
    assert loaded < 3 * idle + 0.05


def test_a_dead_worker_is_replaced_and_its_job_tried_again(c: TestClient) -> None:
    cid, links = lorraine(c)
    allies = auth(links["Allies general"])
    insight = c.app.state.insight  # type: ignore[attr-defined]
    finished(c, f"/api/campaigns/{cid}/forecast", allies)
    for process in list(insight.pools["forecast"].executor._processes.values()):
        process.kill()  # out of memory, or an operator's kill
        process.join(10)
    legal = c.get(f"/api/campaigns/{cid}/view", headers=allies).json()["legal"]
    assert c.post(f"/api/campaigns/{cid}/act", headers=allies, json={"action": legal[0]}).is_success
    end = time.monotonic() + 120
    path = f"/api/campaigns/{cid}/forecast"
    while True:  # the next forecast is worked out by a new worker; a job lost with the old one says so once
        r = c.get(path, headers=allies)
        assert r.status_code == 200, r.text
        job = r.json()
        if job["status"] == "done":
            break
        if job["status"] == "failed":
            assert job["error"] == "the background worker stopped (killed, or out of memory); ask again to try " \
                "once more"
            assert c.get(path, headers=allies).json()["status"] == "failed"  # not tried again behind one's back
            path += "?retry=true"
        assert time.monotonic() < end, job
        time.sleep(0.2)


def test_a_job_pushed_out_while_at_work_can_be_asked_for_again(c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each submission is cancelled by an id of its own: a job dropped from the kept ones while it ran is worked
    out afresh when asked again (its key's old id once stopped every later job of that key)."""
    from warroom.server import insight as module

    monkeypatch.setattr(module, "KEEP", 2)
    insight = c.app.state.insight  # type: ignore[attr-defined]
    cid, links = lorraine(c)
    allies = auth(links["Allies general"])
    insight.sizes["forecast"] = 100_000
    assert c.get(f"/api/campaigns/{cid}/forecast", headers=allies).json()["status"] == "running"
    end = time.monotonic() + 60
    while not c.get(f"/api/campaigns/{cid}/forecast", headers=allies).json()["done"]:  # at work
        assert time.monotonic() < end
        time.sleep(0.2)
    insight.sizes["forecast"] = SMALL["forecast"]
    for _ in range(2):
        other, others = lorraine(c)
        c.get(f"/api/campaigns/{other}/forecast", headers=auth(others["Allies general"]))
    job = finished(c, f"/api/campaigns/{cid}/forecast", allies, most=120.0)
    assert job["result"]["now"]["rollouts"] == SMALL["forecast"]


def test_a_request_that_read_an_older_position_leaves_the_newer_job_alone(c: TestClient) -> None:
    from warroom.core.errors import IllegalActionError

    insight = c.app.state.insight  # type: ignore[attr-defined]
    cid, links = lorraine(c)
    allies = auth(links["Allies general"])
    finished(c, f"/api/campaigns/{cid}/forecast", allies)
    (key,) = insight.jobs
    newer = insight.jobs[key]
    older = (key[0], key[1], key[2] - 1, key[3], key[4])
    with pytest.raises(IllegalActionError, match="moved on since this page was drawn"):
        insight.ask(older, "forecast", {})
    assert insight.jobs[key] is newer


def test_a_job_for_a_position_left_behind_is_dropped_without_anyone_asking(c: TestClient) -> None:
    """A general asks, then moves at once: the advice for the old position stops within a few seconds, and holds
    up no other campaign's advice."""
    cid, links = lorraine(c)
    allies = auth(links["Allies general"])
    insight = c.app.state.insight  # type: ignore[attr-defined]
    insight.sizes["advice"] = 100_000
    assert c.get(f"/api/campaigns/{cid}/advice", headers=allies).json()["status"] == "running"
    (job,) = insight.jobs.values()
    legal = c.get(f"/api/campaigns/{cid}/view", headers=allies).json()["legal"]
    assert c.post(f"/api/campaigns/{cid}/act", headers=allies, json={"action": legal[0]}).is_success
    end = time.monotonic() + 30
    while not job.future.done():
        assert time.monotonic() < end, "the job for the old position kept working"
        time.sleep(0.1)
    assert job not in insight.jobs.values()


def test_a_job_for_an_earlier_position_is_dropped(c: TestClient) -> None:
    cid, links = lorraine(c)
    allies = auth(links["Allies general"])
    insight = c.app.state.insight  # type: ignore[attr-defined]
    insight.sizes["forecast"] = 100_000  # minutes of work
    assert c.get(f"/api/campaigns/{cid}/forecast", headers=allies).json()["status"] == "running"
    (old,) = insight.jobs.values()
    legal = c.get(f"/api/campaigns/{cid}/view", headers=allies).json()["legal"]
    assert c.post(f"/api/campaigns/{cid}/act", headers=allies, json={"action": legal[0]}).is_success
    insight.sizes["forecast"] = SMALL["forecast"]
    job = finished(c, f"/api/campaigns/{cid}/forecast", allies, most=60.0)  # not stuck behind the old one
    assert job["result"]["now"]["rollouts"] == SMALL["forecast"]
    assert old.future.done() and old not in insight.jobs.values()  # dropped: its answer could not be shown


def test_the_two_player_norway_link_asks_for_its_allies_advice_by_name(c: TestClient) -> None:
    made = c.post("/api/campaigns", json={"scenario": "kampen", "bots": {"germany": "random"}})
    assert made.status_code == 201, made.text
    cid = made.json()["id"]
    norway = auth(next(link["secret"] for link in made.json()["links"]
                       if link["label"] == "Norway and the Allies player"))
    for _ in range(300):
        view = c.get(f"/api/campaigns/{cid}/view", headers=norway).json()
        if view["to_act"] == "allies" and view["legal"]:
            break
        assert view["legal"], view["to_act"]
        assert c.post(f"/api/campaigns/{cid}/act", headers=norway, json={"action": view["legal"][-1]}).is_success
    else:
        raise AssertionError("the Allies never came to act")
    assert c.get(f"/api/campaigns/{cid}/advice?side=allies", headers=norway).status_code == 200
    assert c.get(f"/api/campaigns/{cid}/advice?side=germany", headers=norway).status_code == 403
    r = c.get(f"/api/campaigns/{cid}/advice?side=norway", headers=norway)
    assert r.status_code == 409 and "side to act" in r.json()["detail"]


def test_a_job_is_never_started_on_a_log_read_after_the_campaign_moved(c: TestClient,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The log a new job reads is read after the row its key names: if the campaign moved in between (another tab
    acted), the log may be of the next position, another seat's to decide, and advice worked out on it would answer
    this asker with that seat's plans. The request is refused with the reload message, and no job starts."""
    import dataclasses

    cid, links = lorraine(c)
    allies = auth(links["Allies general"])
    store = c.app.state.campaigns.store  # type: ignore[attr-defined]
    moved: list[bool] = []
    row_of, log_of = store.campaign, store.log

    def campaign(cid_: str) -> Any:  # the row, one move on once the log was read
        row = row_of(cid_)
        return dataclasses.replace(row, seq=row.seq + 1) if moved else row

    def log(cid_: str) -> Any:
        moved.append(True)
        return log_of(cid_)

    monkeypatch.setattr(store, "campaign", campaign)
    monkeypatch.setattr(store, "log", log)
    r = c.get(f"/api/campaigns/{cid}/advice", headers=allies)
    assert r.status_code == 409 and "moved on since this page was drawn" in r.json()["detail"], r.text
    assert moved and not c.app.state.insight.jobs  # type: ignore[attr-defined]
