"""What the club server's insight workers run (`server.insight` starts them): a job rebuilds a campaign from its log
and works out advice, a forecast or an analysis.

A worker is a fresh interpreter (started by spawn) that imports this module to find `work`, so this module imports
only the engine, and the rest when a job needs it. With `server.insight` and `server.service` (the database layer,
the map drawing) a new worker spent 0.85 CPU-s on imports before its first job; with this module and the engine
it spends 0.15. Only a campaign of an uploaded scenario needs `server.service`, to read the scenario, and imports
it for that job.
"""

from __future__ import annotations

import contextlib
import os
import queue
import time
from typing import Any

from warroom import rulesets
from warroom.core.log import GameRecord, LogEntry

ANALYSIS_BUDGET = 8000
"""The most rollouts one analysis plays: a long game gets fewer a position (Kampen om Norge's 800 entries: 5 each)."""
ADVICE_PLANS = 6
ADVICE_MOST = 2000
ADVICE_SECONDS = 120.0
"""The advisor on the server: six plans, each to ±5 points or at most 2,000 rollouts, at most two minutes of CPU
time for one answer (a Norway position, played on the reference engine, may need more for ±5)."""
FORECAST_ROLLOUTS = 200
FORECAST_SECONDS = 60.0
"""A forecast on the server: 200 rollouts a line, or fewer if they would take more than a minute of CPU (a Narvik
rollout takes about two seconds; the page says how many were played)."""
ANALYSIS_ROLLOUTS = 24
BOTS = "heuristic"
"""The bot that plays every side in the rollouts."""

_progress: Any = None
"""In a worker: the queue its progress goes back over."""
_cancels: Any = None
"""In a worker: the queue that names the jobs no longer wanted (each pool has one worker, which reads them all)."""
_cancelled: set[str] = set()


class Cancelled(Exception):
    """A job nobody wants any more (the campaign moved on): the worker drops it at its next progress."""


def start_worker(progress: Any, cancels: Any, nice: int) -> None:
    """A worker's first step: keep its queues, and lower its priority by `nice`."""
    global _progress, _cancels
    _progress, _cancels = progress, cancels
    with contextlib.suppress(OSError):  # not allowed here: the worker runs at the server's priority
        os.nice(nice)


def _check_cancelled(job_id: str) -> None:
    while _cancels is not None:
        try:
            _cancelled.add(_cancels.get_nowait())
        except queue.Empty:
            break
    if job_id in _cancelled:
        _cancelled.discard(job_id)  # every submission has an id of its own: this one will not be asked again
        raise Cancelled(job_id)


def work(job_id: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """In a worker: rebuild the campaign from its log and do the job; its answer as JSON."""
    from warroom.ai.advisor import Advisor
    from warroom.ai.analysis import analyse
    from warroom.ai.forecast import forecast
    from warroom.ai.rollout import SPECTATOR
    from warroom.core.game import replay
    from warroom.scenarios import load_game

    _check_cancelled(job_id)
    toml = payload["scenario_toml"]
    if toml:
        from warroom.server.service import uploaded_scenario

        sc = uploaded_scenario(toml)
    else:
        sc = load_game(payload["scenario_id"])
    params = payload["params"]
    record = GameRecord(sc.id, sc.version, params, 0, [LogEntry(*e) for e in payload["log"]])
    last = [0.0]

    def progress(done: int, total: int) -> None:
        _check_cancelled(job_id)
        now = time.monotonic()
        if _progress is not None and (now - last[0] > 0.25 or done >= total):
            last[0] = now
            _progress.put((job_id, done, total))

    bots = dict.fromkeys(sc.sides, BOTS)
    seed, size = payload["seed"], payload["size"]
    if kind == "analysis":  # within the budget: a long game gets fewer rollouts a position
        size = min(size, max(2, ANALYSIS_BUDGET // (2 * max(1, len(record.log)))))
        return analyse(record, lambda: rulesets.new_game(sc, dict(params)), SPECTATOR, bots, seed, size,
                       progress=progress).to_json()
    st = replay(record, lambda: rulesets.new_game(sc, dict(params)))
    if kind == "forecast":
        return forecast(st, bots, seed, size, progress, seconds=FORECAST_SECONDS).to_json()
    advice = Advisor(st, bots, seed, candidates=ADVICE_PLANS, most=size, seconds=ADVICE_SECONDS)
    return advice.advise((), progress).to_json()
