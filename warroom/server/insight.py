"""The club server's background work: the plan advisor, the forecast and the analysis after a game (`ai.advisor`,
`ai.forecast`, `ai.analysis`).

- **Never in a request's way.** A job runs in a worker process, one for each kind (started when first needed, at a
  lower priority), never in the process that answers requests, so a request waits for none of it, and a long
  analysis holds up no advice. A request only starts a job or reads how far it got; the pages poll. A job for
  an earlier position of a campaign is dropped when a later one is asked for (a running one at its next report
  of progress), and one whose worker died is tried again in a new worker when asked again.
- **Asked once.** A job is keyed by what it reads: the campaign, its position (undo epoch and log length) and,
  for advice, the side. A page reloaded or opened on two screens asks once. The last `KEEP` jobs are kept in
  memory; after a restart they are worked out again (they hold nothing that the log does not).
- **Secrets.** The worker rebuilds the campaign from its log and reads it only as the job's reader may: advice for
  one side from twins dealt for that side, the forecast and the analysis from twins dealt for a spectator, with
  the log's words as everyone may read them. The dice key never leaves this process: a job's seed is worked out
  from the campaign's id and position, and the rollouts never meet the campaign's own dice.
- **Progress** comes back from the worker over a queue. What a worker runs is `server.insight_work`.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from warroom.core.errors import IllegalActionError, shown
from warroom.core.log import LogEntry
from warroom.core.state import CHANCE, REPORT, TERMINAL
from warroom.server.errors import BadRequestError, ForbiddenError
from warroom.server.insight_work import ADVICE_MOST, ANALYSIS_ROLLOUTS, FORECAST_ROLLOUTS, Cancelled, start_worker, work
from warroom.server.portable import ANY_SIDE, seat_of
from warroom.server.store import CampaignRow, Grant

LOG = logging.getLogger("warroom.insight")
KEEP = 64
"""Jobs kept in memory, the newest."""
NICE = 10
"""How much lower the workers' priority is."""
WATCH = 1.0
"""How often, in seconds, the jobs still working are checked against their campaign's position."""


@dataclass(slots=True)
class Job:
    """One piece of background work and how far it got."""

    kind: str
    future: Future[dict[str, Any]] | None = None
    done: int = 0
    total: int = 0
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    quiet: bool = False
    """Dropped, or the server is stopping: the job's end is no failure worth a line in the log."""

    def end(self, future: Future[dict[str, Any]]) -> None:
        self.finished = time.monotonic()
        error = None if future.cancelled() else future.exception()
        if error is not None and not isinstance(error, Cancelled) and not self.quiet:  # logged once; the text in
            LOG.warning("a %s job failed: %s: %s", self.kind, type(error).__name__, error)  # the log only: it
            # might quote the campaign's own log

    def failed(self) -> bool:
        future = self.future
        return future is not None and future.done() and (future.cancelled() or future.exception() is not None)

    def status(self) -> dict[str, Any]:
        """{status: running | done | failed, done, total, seconds, result | error}: the seconds it has taken so
        far, or took. A failure is reported, not tried again, until someone asks to retry (`Insight.ask`)."""
        took = (self.finished if self.finished is not None else time.monotonic()) - self.started
        out: dict[str, Any] = {"kind": self.kind, "done": self.done, "total": self.total, "seconds": round(took, 1)}
        future = self.future
        if future is None or not future.done():
            out["status"] = "running"
            return out
        if self.failed():
            error = None if future.cancelled() else future.exception()
            why = "the background worker stopped (killed, or out of memory)" if isinstance(error, BrokenProcessPool) \
                else "it was stopped" if error is None or isinstance(error, Cancelled) \
                else "something went wrong (the server's log says what)"
            out.update(status="failed", error=f"{why}; ask again to try once more")
        else:
            out.update(status="done", result=future.result(), done=max(self.done, self.total))
        return out


@dataclass(slots=True)
class Pool:
    """One kind's worker process, its progress and cancel queues."""

    executor: ProcessPoolExecutor
    progress: Any
    cancels: Any
    reader: threading.Thread


class Insight:
    """The jobs of one server process and the workers that do them: a worker per kind, so that a long analysis
    never holds up advice or a forecast. `sizes`: each kind's rollouts (advice: the most for one plan; forecast:
    for each line; analysis: at each position, at most)."""

    def __init__(self, position: Callable[[str], tuple[int, int]] | None = None) -> None:
        """`position`: a campaign's (undo epoch, log length) now, read from the store (None: jobs are only
        dropped when a later position of their campaign is asked about)."""
        self.position = position
        self.watcher: threading.Thread | None = None
        self.submitted = 0
        self.sizes = {"advice": ADVICE_MOST, "forecast": FORECAST_ROLLOUTS, "analysis": ANALYSIS_ROLLOUTS}
        self.nice = NICE
        """How much lower than the server's the workers' priority is, set before the first job (tests on a loaded
        machine: 0, else a niced worker may barely run)."""
        self.pools: dict[str, Pool] = {}
        self.jobs: OrderedDict[tuple[Any, ...], Job] = OrderedDict()
        self.by_id: dict[str, Job] = {}
        self.ids: dict[tuple[Any, ...], str] = {}
        self.lock = threading.Lock()
        self.closed = False

    def _pool(self, kind: str, fresh: bool = False) -> Pool:
        pool = self.pools.get(kind)
        if pool is None or fresh:
            if pool is not None:  # a worker died: its pool is broken for good
                pool.executor.shutdown(wait=False, cancel_futures=True)
                pool.progress.put(None)
            ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing of the server's threads
            progress, cancels = ctx.Queue(), ctx.Queue()
            executor = ProcessPoolExecutor(1, mp_context=ctx, initializer=start_worker,
                                           initargs=(progress, cancels, self.nice))
            reader = threading.Thread(target=self._read_progress, args=(progress,), daemon=True,
                                      name=f"insight-{kind}")
            reader.start()
            pool = self.pools[kind] = Pool(executor, progress, cancels, reader)
        return pool

    def _read_progress(self, q: Any) -> None:
        while True:
            try:
                got = q.get(timeout=1.0)
            except queue.Empty:
                if self.closed:
                    return
                continue
            except (EOFError, OSError, ValueError):  # the queue closed: the server is stopping
                return
            if got is None:
                return
            job_id, done, total = got
            with self.lock:
                job = self.by_id.get(job_id)
                if job is not None:
                    job.done, job.total = done, total

    def ask(self, key: tuple[Any, ...], kind: str,
            payload: dict[str, Any] | Callable[[], dict[str, Any]], retry: bool = False) -> dict[str, Any]:
        """The status of the job `key` = (campaign, epoch, seq, kind, side), started now if it is not known (or
        failed before and `retry` asks again). Jobs of the same kind for an earlier position of the campaign are
        dropped: their answers could no longer be shown. `payload` is what a new job reads, or a function that
        reads it: called only when the job starts, so that a page polling a job it started reads no campaign log."""
        with self.lock:
            job = self.jobs.get(key)
            if job is not None and retry and job.failed():
                self._forget(key)
                job = None
            if job is None:
                later = [k for k in self.jobs if k[0] == key[0] and k[3:] == key[3:] and k[1:3] > key[1:3]]
                if later:  # this request read the campaign before a move that its own kind of job (for the same
                    # side: another side's asking must not show) has already seen
                    raise IllegalActionError("the campaign moved on since this page was drawn: reload it")
                for old in [k for k in self.jobs if k[0] == key[0] and k[3] == kind and k[1:3] < key[1:3]]:
                    self._forget(old, cancel=True)
                job = self._submit(key, kind, payload() if callable(payload) else payload)
                while len(self.jobs) > KEEP:
                    self._forget(next(iter(self.jobs)), cancel=True)
            else:
                self.jobs.move_to_end(key)
            return job.status()

    def _submit(self, key: tuple[Any, ...], kind: str, payload: dict[str, Any]) -> Job:
        self.submitted += 1  # an id of its own for every submission: cancelling one never touches a later one
        job_id = f"{hashlib.sha256(repr(key).encode()).hexdigest()[:16]}-{self.submitted}"
        job = Job(kind)
        sized = {**payload, "size": self.sizes[kind]}
        try:
            job.future = self._pool(kind).executor.submit(work, job_id, kind, sized)
        except BrokenProcessPool:  # its worker died (killed, out of memory): a new one takes the job
            job.future = self._pool(kind, fresh=True).executor.submit(work, job_id, kind, sized)
        job.future.add_done_callback(job.end)
        self.jobs[key] = job
        self.by_id[job_id] = job
        self.ids[key] = job_id
        self._watch()
        return job

    def drop(self, campaign: str, kinds: tuple[str, ...]) -> None:
        """Drop the campaign's jobs of these kinds (the organiser switched the advisor off)."""
        with self.lock:
            for key in [k for k in self.jobs if k[0] == campaign and k[3] in kinds]:
                self._forget(key, cancel=True)

    def _watch(self) -> None:
        """Start the thread that drops jobs whose campaign moved on (called with the lock held)."""
        if self.position is not None and self.watcher is None:
            self.watcher = threading.Thread(target=self._watching, daemon=True, name="insight-watch")
            self.watcher.start()

    def _watching(self) -> None:
        """Every `WATCH` seconds: a job still working for a position its campaign has left (a move, a result, an
        undo) is dropped at once, so that a general who asked and then moved holds up nobody's advice."""
        assert self.position is not None
        while not self.closed:
            time.sleep(WATCH)
            with self.lock:
                working = [k for k, job in self.jobs.items() if job.future is not None and not job.future.done()]
            moved = []
            for key in working:
                try:
                    if self.position(key[0]) != tuple(key[1:3]):
                        moved.append(key)
                except Exception:
                    LOG.debug("insight: cannot read campaign %s", key[0], exc_info=True)
            with self.lock:
                for key in moved:
                    if key in self.jobs:
                        self._forget(key, cancel=True)

    def _forget(self, key: tuple[Any, ...], cancel: bool = False) -> None:
        job = self.jobs.pop(key)
        job.quiet = cancel
        job_id = self.ids.pop(key)
        self.by_id.pop(job_id, None)
        pool = self.pools.get(job.kind)  # none once the server stops
        if cancel and pool is not None and job.future is not None and not job.future.cancel() \
                and not job.future.done():
            pool.cancels.put(job_id)  # running: the worker drops it at its next progress

    def close(self) -> None:
        """Stop the workers: their work is thrown away (it is worked out again when asked after a restart)."""
        self.closed = True
        with self.lock:
            for job in self.jobs.values():
                job.quiet = True
        pools, self.pools = self.pools, {}
        for pool in pools.values():
            for process in list(getattr(pool.executor, "_processes", {}).values()):
                process.terminate()  # a worker still starting would otherwise outlive the queues it reads
            pool.executor.shutdown(wait=True, cancel_futures=True)
            pool.progress.put(None)


# ----- who may ask what ---------------------------------------------------------------------------------------
def job_seed(row: CampaignRow, kind: str, side: str) -> int:
    """A job's seed, from what it reads (never from the dice key): the same position gives the same answer, save
    that a time limit may stop a job after fewer rollouts on a slower machine (docs/advisor.md)."""
    text = f"{row.id}/{row.epoch}/{row.seq}/{kind}/{side}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:7], "big")


def payload(row: CampaignRow, log: list[LogEntry], kind: str, side: str) -> dict[str, Any]:
    return {"scenario_id": row.scenario_id, "scenario_toml": row.scenario_toml, "params": row.params,
            "log": [tuple(e) for e in log], "seed": job_seed(row, kind, side)}


def advice_side(st: Any, row: CampaignRow, grant: Grant, asked: str | None) -> str:
    """The side whose advice the holder of `grant` may ask for now: its own side, when its player decides.
    Raises `ForbiddenError` (403) for anyone else, and `IllegalActionError` (409) when it is not its decision."""
    if not row.advisor:
        raise ForbiddenError("the organiser has switched the plan advisor off for this campaign")
    if grant.role != "general":
        raise ForbiddenError("advice is for a side's generals: the organiser and the commanders play no side's plan")
    if asked and asked not in st.sc.sides:
        raise BadRequestError(f"there is no side {shown(asked)} in this campaign")
    if asked and grant.side != ANY_SIDE and seat_of(st.sc, st.params, asked) != grant.side:
        raise ForbiddenError("a link gets its own side's advice only")  # its player's sides: Norway's also the Allies'
    if asked and asked != st.current_player():
        raise IllegalActionError(f"advice is for the side to act now, not {asked!r}")
    who = st.current_player()
    if who in (CHANCE, REPORT, TERMINAL):
        raise IllegalActionError("nobody decides now: advice is for the side to act" if who != TERMINAL
                         else "the campaign is over: see its analysis instead")
    if grant.side != ANY_SIDE and seat_of(st.sc, st.params, who) != grant.side:
        raise IllegalActionError("it is not your decision now: ask for advice when your side is to act")
    return str(who)
