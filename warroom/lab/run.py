"""Playing a sweep: each cell's games in tasks of `Spec.chunk` games, on local processes or on a Ray cluster, each
finished task stored at once (`lab.store`), so memory stays flat and a run stopped at any point goes on from what
it stored. A game is `sim.runner.play_summary` with the cell's scenario variant, bots and the seed
`game_seed(cell.seed, n)`: the same games whatever the number of workers or the size of a task.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from warroom import rulesets
from warroom.core.errors import ScenarioError, UnknownNameError
from warroom.lab.cluster import Notice, on_ray
from warroom.lab.errors import LabRunError, LabStopped
from warroom.lab.overrides import PathError, variant
from warroom.lab.spec import Cell, Spec
from warroom.lab.store import Store
from warroom.sim.runner import game_seed, play_summary

Progress = Callable[[int], None]
"""Called with the number of games just stored."""
CHECKED = 200
"""Cells whose scenario variant is made before any game is played, so that a combination of values the scenario
refuses stops the run at once; in a larger sweep the others are made by the workers, which name such a cell too."""


@dataclass(frozen=True, slots=True)
class Task:
    cell: Cell
    start: int
    stop: int


def tasks(spec: Spec, store: Store) -> list[Task]:
    """The tasks still to play, less those stored: every cell's first chunk of games, then every cell's second,
    and so on, so that a sweep stopped early has games in every cell."""
    stored = {cell.id: store.done(cell) for cell in spec.cells}
    out: list[Task] = []
    for start in range(0, spec.games, spec.chunk):
        stop = min(spec.games, start + spec.chunk)
        out.extend(Task(cell, start, stop) for cell in spec.cells if (start, stop) not in stored[cell.id])
    return out


def lead_metrics(trace: tuple[float, ...], sign: int) -> tuple[int, int | None, float | None]:
    """From a game's turn-by-turn lead of the first camp, and who won (1 the first camp, -1 the other, 0 a draw):
    how often the lead changed hands (passing through a draw does not count twice), the turn from which the
    winner led at every turn's end, and the most the winner was behind at a turn's end (0: never); none of the
    last two for a draw."""
    changes, last = 0, 0
    for lead in trace:
        now = (lead > 0) - (lead < 0)
        if now and last and now != last:
            changes += 1
        last = now or last
    if not sign:
        return changes, None, None
    decided = len(trace)
    while decided > 1 and ((trace[decided - 2] > 0) - (trace[decided - 2] < 0)) == sign:
        decided -= 1
    behind = max((-sign * lead for lead in trace), default=0.0)
    return changes, decided, max(0.0, behind)


def cell_scenario(cell: Cell) -> Any:
    """The cell's scenario variant (the last few made are kept: memory stays flat over many cells); raises
    `LabRunError` naming the cell where the combination of its values is one its scenario refuses."""
    try:
        return _variant(json.dumps([cell.scenario, cell.changes]))
    except (ScenarioError, PathError, UnknownNameError) as exc:
        said = "; ".join(getattr(exc, "problems", [str(exc)]))
        raise LabRunError(f"cell {cell.id} ({describe(cell)}) cannot be played: {said}") from exc


@lru_cache(maxsize=8)
def _variant(key: str) -> Any:
    scenario, changes = json.loads(key)
    return variant(scenario, [tuple(c) for c in changes])


def describe(cell: Cell) -> str:
    return ", ".join([cell.scenario, *(f"{s} {b}" for s, b in cell.bots), *(f"{p} = {v!r}" for p, v in cell.changes)])


def play_task(cell: Cell, start: int, stop: int, params: dict[str, Any]) -> dict[str, list[Any]]:
    """Games `start` to `stop - 1` of a cell, as rows (`lab.store.SCHEMA`); a game that fails raises
    `LabRunError` naming its cell, number and seed."""
    sc = cell_scenario(cell)
    system = rulesets.of(sc)
    first = system.score_sides(sc)[0]
    game_params = {**system.sim_params, **params}
    bots = dict(cell.bots)
    rows: dict[str, list[Any]] = {k: [] for k in ("game", "seed", "outcome", "winner", "diff", "turns",
                                                  "lead_changes", "decided", "drama", "trace")}
    for n in range(start, stop):
        seed = game_seed(cell.seed, n)
        try:
            g = play_summary(cell.scenario, seed, bots, dict(game_params), sc)
        except Exception as exc:
            raise LabRunError(f"game {n} of cell {cell.id} ({describe(cell)}; seed {seed}) failed: "
                              f"{type(exc).__name__}: {exc}") from exc
        sign = 0 if not g.winner else 1 if g.winner == first else -1
        changes, decided, drama = lead_metrics(g.trace, sign)
        for key, value in (("game", n), ("seed", seed), ("outcome", g.outcome), ("winner", g.winner),
                           ("diff", g.diff), ("turns", len(g.trace)), ("lead_changes", changes),
                           ("decided", decided), ("drama", drama), ("trace", list(g.trace))):
            rows[key].append(value)
    return rows


RESUME = "the games stored are kept: run the same command to go on"
"""What `run` adds to a `LabStopped`: every finished task is stored."""


def run(spec: Spec, store: Store, jobs: int = 1, ray_address: str | None = None,
        progress: Progress | None = None, notice: Notice | None = None) -> int:
    """Play every game of the sweep not yet stored; returns how many were played now. The folder is taken first
    (one run a folder), and the first cells' variants are made before any game is played or cluster joined."""
    with store.running():
        todo = tasks(spec, store)
        if not todo:
            return 0
        for cell in list({t.cell.id: t.cell for t in todo}.values())[:CHECKED]:  # a refused combination, said at once
            cell_scenario(cell)
        played = 0
        try:
            for task, rows in results(spec.params, todo, jobs, ray_address, notice):
                store.put(task.cell, task.start, task.stop, rows)
                played += task.stop - task.start
                if progress is not None:
                    progress(task.stop - task.start)
        except LabStopped as exc:
            raise LabStopped(f"{exc}; {RESUME}") from exc
        return played


def results(params: dict[str, Any], todo: list[Task], jobs: int = 1, ray_address: str | None = None,
            notice: Notice | None = None) -> Iterator[tuple[Task, dict[str, list[Any]]]]:
    """Each task's games as it finishes: on the Ray cluster at `ray_address`, or else on `jobs` local processes."""
    if ray_address:
        return on_ray(todo, play_task, lambda t: (t.cell, t.start, t.stop, params),
                      lambda t: f"games {t.start}-{t.stop - 1} of cell {t.cell.id}", ray_address, notice)
    return local(params, todo, jobs)


def local(params: dict[str, Any], todo: list[Task], jobs: int) -> Iterator[tuple[Task, dict[str, list[Any]]]]:
    """Each task's games as it finishes, played on `jobs` processes of this machine (in this one for 1)."""
    if jobs <= 1:
        for t in todo:
            yield t, play_task(t.cell, t.start, t.stop, params)
        return
    window = jobs * 2  # tasks in flight: bounded, so that memory stays flat however long the sweep
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=watch_parent, initargs=(os.getpid(),))
    finished = False
    try:
        waiting = iter(todo)
        inflight: deque[tuple[Task, Future[dict[str, list[Any]]]]] = deque()
        # The workers start at the first tasks given, forked from this thread with its signal mask: Ctrl-C blocked
        # in it meanwhile, a worker starts with Ctrl-C held back until it ignores it (`watch_parent`), where Python's
        # handler printed a worker's traceback when Ctrl-C came as it began. This process may still hear it
        # meanwhile, through another of its threads (Rich's progress bar): `finally` below stops the workers.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for t in waiting:
                inflight.append((t, pool.submit(play_task, t.cell, t.start, t.stop, params)))
                if len(inflight) >= window:
                    break
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        while inflight:
            t, future = inflight.popleft()
            try:
                rows = future.result()
            except BaseException as exc:
                for other, later in inflight:  # what the other workers finished is stored before the stop
                    if later.done() and not later.cancelled() and later.exception() is None:
                        yield other, later.result()
                if isinstance(exc, BrokenProcessPool):
                    raise LabStopped("a worker process stopped (killed, or out of memory)") from exc
                raise
            nxt = next(waiting, None)
            if nxt is not None:
                inflight.append((nxt, pool.submit(play_task, nxt.cell, nxt.start, nxt.stop, params)))
            yield t, rows
        finished = True
    finally:
        if not finished:  # stopped (Ctrl-C, a store that refused a part): the workers go at once, games unstored
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
        # Waited for even after a stop (the workers are gone, so at once): an executor left running closes its
        # wake-up pipe at some point, and Python 3.11's exit hook then writes to it and prints a traceback.
        pool.shutdown(wait=True, cancel_futures=True)


def watch_parent(parent: int) -> None:
    """A worker's start: it ends itself if the process that started it goes (killed, say), rather than waiting
    for work that will never come; and it ignores Ctrl-C, which a terminal sends to the whole process group: the
    run stops its workers itself (`local`), where Ctrl-C raised in a worker printed its traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held back while it was started
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()
