"""Benchmark: the club server under a bounded load on loopback.

The real app runs under uvicorn in a thread of this process, on a fresh SQLite database in a temporary
directory for each run (or on `--database-url`, e.g. PostgreSQL). A second process plays the clients, so that
their work does not take the server's interpreter lock: `--clients` of them (asyncio, one keep-alive
connection each) share `--campaigns` campaigns (at least two clients each), each client holding the general's
link of one side. A client pauses `--think` ms on average before each request (default 1000: a player reading
the page; 0 measures the server's capacity, every client hammering without pause) and loops: it
reads the campaign page, reads its view (the map's data and its legal actions) and, when its side may act,
posts one of the legal actions, chosen at random, with the position it saw. When another client of the same
side acted first the answer is 409, counted as a conflict and not as an error; a 5xx, another 4xx or a
request without an answer is an error. A finished campaign is replaced by a new one.

The server settles its heap before serving, as `warroom serve` does (`settle_heap`), and each client's HTTP
client is made before the clock starts.

Reports requests per second and p50/p95/p99 latency per kind of request (medians over `--runs` runs), the
page and view latency of one client alone, the server's CPU use, what the server logged, and whether page
and map requests kept p95 under 50 ms. Usage:
    python bench/server_load.py [--clients 50] [--campaigns 10] [--seconds 10 | --requests N] [--runs 3]
                                [--think MS] [--alone N] [--database-url URL] [--scenario caen]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import resource
import statistics
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx2

from warroom import rulesets
from warroom.scenarios import load_game
from warroom.server.app import settle_heap
from warroom.server.local import running

GOAL_MS = 50.0
"""The issue's goal: p95 latency of page and map requests under load."""
GOAL_KINDS = ("page", "view")
KINDS = ("page", "view", "act", "create")
CONFLICT = 409
Sample = tuple[str, float, int]
"""(kind, latency in ms, HTTP status; 0 when the request failed without an answer)."""
Outcome = tuple[list[Sample], float, float, dict[str, int]]
"""A run as the clients saw it: every request's sample, the wall time taken, the clients' CPU time, and the
errors seen (text: how many)."""


# ----- the server (this process) -----------------------------------------------------------------------------
class ServerLog(logging.Handler):
    """Counts what the server logs at WARNING or above (uncaught exceptions, pool timeouts, ...)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.problems: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text = f"{text}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        self.problems[text[:300]] += 1


@contextmanager
def serve(url: str) -> Iterator[tuple[str, ServerLog]]:
    """The app on a free loopback port, in a thread; yields its base URL and what it logged."""
    log = ServerLog()
    for name in ("uvicorn", "sqlalchemy", ""):  # uvicorn's loggers do not propagate to the root
        logging.getLogger(name).addHandler(log)
    logging.getLogger("uvicorn").propagate = False
    try:
        with running(url, log_config=None, access_log=False, timeout_graceful_shutdown=2,
                     prepare=lambda _app: settle_heap()) as base:  # as `warroom serve` does
            yield base, log
    finally:
        for name in ("uvicorn", "sqlalchemy", ""):
            logging.getLogger(name).removeHandler(log)


# ----- the clients (a worker process) ------------------------------------------------------------------------
class Done(Exception):
    """The run's budget (time or requests) is spent."""


@dataclass
class Slot:
    """One of the shared campaigns: its id and the general's secret of each side."""

    cid: str
    generals: dict[str, str]
    renewing: bool = False


@dataclass
class Load:
    deadline: float
    max_requests: int | None
    think_ms: float
    samples: list[Sample] = field(default_factory=list)
    problems: Counter[str] = field(default_factory=Counter)
    started: int = 0

    async def call(self, http: httpx2.AsyncClient, kind: str, method: str, path: str, rng: random.Random,
                   body: dict[str, Any] | None = None) -> httpx2.Response | None:
        """One timed request; None when it failed without an answer. Raises `Done` once the budget is spent."""
        if self.think_ms:
            await asyncio.sleep(rng.uniform(0, 2 * self.think_ms) / 1000)
        if time.perf_counter() >= self.deadline or (self.max_requests is not None
                                                     and self.started >= self.max_requests):
            raise Done
        self.started += 1
        start = time.perf_counter()
        try:
            response = await http.request(method, path, json=body)
        except Exception as exc:
            self.samples.append((kind, (time.perf_counter() - start) * 1000, 0))
            self.problems[f"{kind}: {type(exc).__name__}: {exc}"[:300]] += 1
            return None
        self.samples.append((kind, (time.perf_counter() - start) * 1000, response.status_code))
        if is_error(response.status_code):
            self.problems[f"{kind} {response.status_code}: {response.text[:200]}"] += 1
        return response


def is_error(status: int) -> bool:
    return status == 0 or status >= 500 or (status >= 400 and status != CONFLICT)


def new_slot(body: dict[str, Any]) -> Slot:
    return Slot(body["id"], {link["side"]: link["secret"] for link in body["links"] if link["role"] == "general"})


def new_campaign(scenario: str) -> dict[str, object]:
    """What asks for a campaign of `scenario`: dice-rolled battles where the rule system has a mode to choose."""
    system = rulesets.of(load_game(scenario))
    return {"scenario": scenario, **({"mode": "gw"} if "mode" in system.params else {})}


async def create(http: httpx2.AsyncClient, scenario: str) -> Slot:
    response = await http.post("/api/campaigns", json=new_campaign(scenario))
    response.raise_for_status()
    return new_slot(response.json())


async def renew(load: Load, http: httpx2.AsyncClient, slots: list[Slot], k: int, cid: str, scenario: str,
                rng: random.Random) -> None:
    """Replace the finished campaign `cid` in slot `k` (once, by the first client that notices)."""
    slot = slots[k]
    if slot.cid != cid or slot.renewing:
        await asyncio.sleep(0.01)
        return
    slot.renewing = True
    try:
        response = await load.call(http, "create", "POST", "/api/campaigns", rng, new_campaign(scenario))
        if response is not None and response.status_code == 201:
            slots[k] = new_slot(response.json())
    finally:
        slot.renewing = False


async def client(n: int, http: httpx2.AsyncClient, slots: list[Slot], load: Load, scenario: str, seed: int) -> None:
    """Client `n` on its own connection `http`: campaign slot n mod len(slots), and the side chosen by
    n // len(slots), until `Done`."""
    rng = random.Random(seed * 1_000_003 + n)
    k = n % len(slots)
    side_index = n // len(slots)
    try:
        while True:
            slot = slots[k]
            cid = slot.cid
            sides = sorted(slot.generals)
            http.headers["Authorization"] = f"Bearer {slot.generals[sides[side_index % len(sides)]]}"
            await load.call(http, "page", "GET", f"/c/{cid}", rng)
            response = await load.call(http, "view", "GET", f"/api/campaigns/{cid}/view", rng)
            if response is None or response.status_code != 200:
                continue
            view = response.json()
            if view["terminal"]:
                await renew(load, http, slots, k, cid, scenario, rng)
            elif view["legal"]:
                act = {"action": rng.choice(view["legal"]), "key": uuid.uuid4().hex, "seq": view["seq"]}
                await load.call(http, "act", "POST", f"/api/campaigns/{cid}/act", rng, act)
    except Done:
        return


async def drive_async(base: str, clients: int, campaigns: int, seconds: float, requests: int | None,
                      think_ms: float, scenario: str, seed: int) -> Outcome:
    async with httpx2.AsyncClient(base_url=base, timeout=60) as http:
        slots = [await create(http, scenario) for _ in range(campaigns)]
        for slot in slots:  # untimed: the server's first page (templates, imports) is not what is measured
            for secret in slot.generals.values():
                for path in (f"/c/{slot.cid}", f"/api/campaigns/{slot.cid}/view"):
                    (await http.get(path, headers={"Authorization": f"Bearer {secret}"})).raise_for_status()
    async with contextlib.AsyncExitStack() as stack:
        # Each client's HTTP client is made before the clock starts: making one takes some 20 ms of this
        # process's loop, and 50 made on the clock would hold every client's first request back a second and
        # then let them all go at once, a burst no real club sends.
        https = [await stack.enter_async_context(httpx2.AsyncClient(base_url=base, timeout=60))
                 for _ in range(clients)]
        start, cpu = time.perf_counter(), time.process_time()
        load = Load(start + seconds, requests, think_ms)
        await asyncio.gather(*(client(n, https[n], slots, load, scenario, seed) for n in range(clients)))
        return load.samples, time.perf_counter() - start, time.process_time() - cpu, dict(load.problems)


def drive(base: str, clients: int, campaigns: int, seconds: float, requests: int | None, think_ms: float,
          scenario: str, seed: int) -> Outcome:
    """The load, in the worker process."""
    return asyncio.run(drive_async(base, clients, campaigns, seconds, requests, think_ms, scenario, seed))


def alone(base: str, repeats: int, scenario: str) -> list[Sample]:
    """One client alone reading its campaign page and view `repeats` times each (after one warm-up each)."""
    samples: list[Sample] = []
    with httpx2.Client(base_url=base, timeout=60) as http:
        body = http.post("/api/campaigns", json=new_campaign(scenario)).raise_for_status().json()
        slot = new_slot(body)
        http.headers["Authorization"] = f"Bearer {slot.generals[sorted(slot.generals)[0]]}"
        paths = {"page": f"/c/{slot.cid}", "view": f"/api/campaigns/{slot.cid}/view"}
        for path in paths.values():
            http.get(path)
        for _ in range(repeats):
            for kind, path in paths.items():
                start = time.perf_counter()
                status = http.get(path).status_code
                samples.append((kind, (time.perf_counter() - start) * 1000, status))
    return samples


# ----- figures -----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Figures:
    count: int
    rate: float
    p50: float
    p95: float
    p99: float


def figures(latencies: list[float], seconds: float) -> Figures:
    if not latencies:
        return Figures(0, 0.0, float("nan"), float("nan"), float("nan"))
    if len(latencies) == 1:
        only = latencies[0]
        return Figures(1, 1 / seconds, only, only, only)
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    return Figures(len(latencies), len(latencies) / seconds, cuts[49], cuts[94], cuts[98])


@dataclass(frozen=True)
class Run:
    seconds: float
    kinds: dict[str, Figures]  # page, view, act, create, all
    applied: int
    conflicts: int
    errors: int
    problems: dict[str, int]
    server_cpu: float  # the server's CPU time over the run, as a share of one core
    client_cpu: float  # the same for the clients' process


def cpu_seconds() -> float:
    """CPU time of this process (the server) so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def summarise(outcome: Outcome, server_cpu: float) -> Run:
    samples, seconds, client_cpu, problems = outcome
    kinds = {kind: figures([ms for k, ms, status in samples if k == kind and status], seconds) for kind in KINDS}
    kinds["all"] = figures([ms for _, ms, status in samples if status], seconds)
    applied = sum(1 for k, _, status in samples if k == "act" and status == 200)
    conflicts = sum(1 for k, _, status in samples if k == "act" and status == CONFLICT)
    errors = sum(1 for _, _, status in samples if is_error(status))
    return Run(seconds, kinds, applied, conflicts, errors, problems, server_cpu / seconds, client_cpu / seconds)


def median_figures(runs: list[Figures]) -> Figures:
    return Figures(int(statistics.median(f.count for f in runs)), statistics.median(f.rate for f in runs),
                   statistics.median(f.p50 for f in runs), statistics.median(f.p95 for f in runs),
                   statistics.median(f.p99 for f in runs))


def table(rows: dict[str, Figures], title: str) -> None:
    print(f"\n{title}")
    print(f"{'kind':<8} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for kind, f in rows.items():
        if f.count:
            print(f"{kind:<8} {f.count:>9} {f.rate:>8.1f} {f.p50:>8.1f} {f.p95:>8.1f} {f.p99:>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--campaigns", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of a run (default 10)")
    parser.add_argument("--requests", type=int, help="end a run after this many requests instead (at most 10 min)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--think", type=float, default=1000.0,
                        help="mean pause in ms before each request: a player reading the page between clicks "
                             "(default 1000; 0 measures the server's capacity, every client hammering at once)")
    parser.add_argument("--alone", type=int, default=30, help="requests of each kind by one client alone (0: skip)")
    parser.add_argument("--database-url", help="a database to use (default: a new SQLite file per run)")
    parser.add_argument("--scenario", default="caen")
    args = parser.parse_args()
    if args.campaigns * 2 > args.clients:
        args.campaigns = max(1, args.clients // 2)
        print(f"(fewer campaigns, {args.campaigns}: each needs a client for each side)")
    seconds = 600.0 if args.requests is not None else args.seconds
    bound = f"{args.requests} requests" if args.requests is not None else f"{args.seconds:g} s"
    print(f"{args.clients} clients on {args.campaigns} {args.scenario} campaigns, {bound} per run, "
          f"think {args.think:g} ms, {args.database_url or 'SQLite'}; {args.runs} runs")
    runs: list[Run] = []
    single: list[dict[str, Figures]] = []
    server_problems: Counter[str] = Counter()
    # The worker process is started (spawn) before any server thread exists, and serves every run.
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as worker:
        worker.submit(time.sleep, 0).result()
        for r in range(args.runs):
            with tempfile.TemporaryDirectory() as tmp:
                url = args.database_url or f"sqlite:///{tmp}/warroom.db"
                with serve(url) as (base, log):
                    if args.alone:
                        lone = worker.submit(alone, base, args.alone, args.scenario).result()
                        single.append({kind: figures([ms for k, ms, _ in lone if k == kind], 1.0)
                                       for kind in GOAL_KINDS})
                    busy = os.getloadavg()[0]
                    cpu = cpu_seconds()
                    outcome = worker.submit(drive, base, args.clients, args.campaigns, seconds, args.requests,
                                            args.think, args.scenario, r).result()
                    cpu = cpu_seconds() - cpu
                server_problems.update(log.problems)
            run = summarise(outcome, cpu)
            runs.append(run)
            total = run.kinds["all"]
            print(f"run {r + 1}: {total.count} requests in {run.seconds:.1f} s ({total.rate:.1f}/s), "
                  f"p95 page {run.kinds['page'].p95:.1f} ms, view {run.kinds['view'].p95:.1f} ms; "
                  f"acts {run.applied} applied, {run.conflicts} conflicts; {run.errors} errors; "
                  f"CPU: server {100 * run.server_cpu:.0f}%, clients {100 * run.client_cpu:.0f}% of a core; "
                  f"load average before {busy:.1f}")
    medians = {kind: median_figures([run.kinds[kind] for run in runs]) for kind in (*KINDS, "all")}
    table(medians, f"under load: medians of {len(runs)} runs")
    applied = statistics.median(run.applied for run in runs)
    conflicts = statistics.median(run.conflicts for run in runs)
    errors = statistics.median(run.errors for run in runs)
    print(f"acts applied {applied:g}, conflicts (409: someone acted first) {conflicts:g}; errors {errors:g} "
          f"(median per run; {sum(run.errors for run in runs)} in all runs)")
    server_cpu = statistics.median(run.server_cpu for run in runs)
    client_cpu = statistics.median(run.client_cpu for run in runs)
    print(f"CPU: the server {100 * server_cpu:.0f}% of a core ({1000 * server_cpu / medians['all'].rate:.1f} ms per "
          f"request; it runs Python under one lock, so one core at most), the clients {100 * client_cpu:.0f}%; "
          f"{os.cpu_count()} cores here")
    if single:
        lone_medians = {kind: median_figures([s[kind] for s in single]) for kind in GOAL_KINDS}
        print(f"\none client alone ({args.alone} of each, medians of {len(single)} runs)")
        print(f"{'kind':<8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
        for kind, f in lone_medians.items():
            print(f"{kind:<8} {f.p50:>8.1f} {f.p95:>8.1f} {f.p99:>8.1f}")
    seen: Counter[str] = Counter()
    for run in runs:
        seen.update(run.problems)
    for text, count in seen.most_common(10):
        print(f"client saw {count}x: {text}")
    for text, count in server_problems.most_common(10):
        print(f"server logged {count}x: {text}")
    met = all(medians[kind].p95 < GOAL_MS for kind in GOAL_KINDS)
    print(f"\ngoal p95 < {GOAL_MS:g} ms for page and map (view) requests under load: "
          f"{'met' if met else 'NOT met'} (page {medians['page'].p95:.1f} ms, view {medians['view'].p95:.1f} ms)")
    if not args.think:
        print(f"({args.clients} clients that never pause keep {args.clients} requests in the server, so the mean "
              f"latency is about {args.clients} / {medians['all'].rate:.0f} req/s = "
              f"{1000 * args.clients / medians['all'].rate:.0f} ms whatever the code does; --think MS adds pauses)")


if __name__ == "__main__":
    main()
