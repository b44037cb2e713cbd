"""`lab tune`: search some scenario data for the values that bring a metric to a goal ([lab.tune]: for instance
the Allies' win rate to 50 % ± 3), with the stated bots.

The search is Optuna's tree-structured Parzen estimator (a sample-efficient Bayesian method from a maintained
library), seeded from the spec, over the positions of each path's candidate values (so that a range keeps its
order). Every trial plays the same game seeds, so candidates are compared on the same luck; a candidate tried
twice is not played again. The best is then played again on fresh seeds (`Tune.confirm` games) and reported
with its 95 % interval: a value found by chance on the trials' seeds shows up there, never silently.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import optuna
import pyarrow as pa

from warroom import rulesets
from warroom.lab.cluster import Notice
from warroom.lab.errors import LabStopped
from warroom.lab.metrics import cell_metrics
from warroom.lab.run import Task, results
from warroom.lab.spec import Cell, Spec, Tune, cell_of
from warroom.lab.store import SCHEMA
from warroom.scenarios import load_game

Progress = Callable[[int], None]


def measure(metrics: dict[str, Any], target: str) -> tuple[float | None, list[float | None]]:
    """A metric's value and 95 % interval, by its name in `Tune.target`."""
    if target.startswith("wins.") or target == "draw":
        r = metrics["wins"][target.removeprefix("wins.")]
        return r["rate"], r["ci95"]
    if target == "balance":
        return metrics["balance"]["value"], metrics["balance"]["ci95"]
    return metrics[target]["mean"], metrics[target]["ci95"]


def play(cell: Cell, games: int, chunk: int, params: dict[str, Any], jobs: int, ray_address: str | None,
         progress: Progress | None, notice: Notice | None = None) -> pa.Table:
    """Games 0 to `games` - 1 of a cell, as one table."""
    todo = [Task(cell, a, min(games, a + chunk)) for a in range(0, games, chunk)]
    parts = []
    try:
        for _task, rows in results(params, todo, jobs, ray_address, notice):
            parts.append(pa.table(rows, schema=SCHEMA))
            if progress is not None:
                progress(len(rows["game"]))
    except LabStopped as exc:
        raise LabStopped(f"{exc}; a tune stores nothing: run it again") from exc
    return pa.concat_tables(parts).sort_by("game")


def candidate(spec: Spec, tune: Tune, values: dict[str, Any], stream: str) -> Cell:
    """The cell of one candidate, with the game seeds of `stream` ('trials' or 'confirm'): the same for every
    candidate, so that they compare on the same luck."""
    changes = tuple(values.items())
    seed = cell_of(spec.seed, tune.scenario, tune.bots, (("lab.tune", stream),)).seed
    return dataclasses.replace(cell_of(spec.seed, tune.scenario, tune.bots, changes), seed=seed)


def run_tune(spec: Spec, jobs: int = 1, progress: Progress | None = None, ray_address: str | None = None,
             notice: Notice | None = None) -> dict[str, Any]:
    """Search, then confirm the best on fresh seeds; the trials, the best and its confirmation."""
    tune = spec.tune
    assert tune is not None
    sc = load_game(tune.scenario)
    camps = rulesets.of(sc).score_sides(sc)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=spec.seed))
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    trials: list[dict[str, Any]] = []
    for _ in range(tune.trials):
        trial = study.ask()
        values = {path: options[trial.suggest_int(path, 0, len(options) - 1)] for path, options in tune.search}
        key = tuple(values.values())
        if key not in seen:
            games = play(candidate(spec, tune, values, "trials"), tune.games, spec.chunk, spec.params, jobs,
                         ray_address, progress, notice)
            got, ci = measure(cell_metrics(games, camps), tune.target)
            seen[key] = {"values": values, "metric": got, "ci95": ci,
                         "distance": None if got is None else abs(got - tune.goal)}
        elif progress is not None:
            progress(tune.games)  # the candidate's games were played already: counted as done
        result = seen[key]
        study.tell(trial, float("inf") if result["distance"] is None else result["distance"])
        trials.append({"trial": len(trials) + 1, **result})
    best = min(seen.values(), key=lambda r: float("inf") if r["distance"] is None else r["distance"])
    games = play(candidate(spec, tune, best["values"], "confirm"), tune.confirm, spec.chunk, spec.params, jobs,
                 ray_address, progress, notice)
    confirmed, ci = measure(cell_metrics(games, camps), tune.target)
    within = confirmed is not None and abs(confirmed - tune.goal) <= tune.tolerance
    return {"target": tune.target, "goal": tune.goal, "tolerance": tune.tolerance, "scenario": tune.scenario,
            "bots": dict(tune.bots), "trials": trials, "best": best,
            "confirmed": {"games": tune.confirm, "metric": confirmed, "ci95": ci, "within_tolerance": within,
                          "goal_in_interval": None if ci[0] is None or ci[1] is None else
                          ci[0] <= tune.goal <= ci[1]}}
