"""`warroom lab`: the balance lab's commands. `run` plays a sweep spec's cells (on this machine's cores, or a Ray
cluster), storing each finished task so that an interrupted run goes on where it stopped; `report` reads the
stored games and gives each cell's metrics."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

lab = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="The balance lab: sweep scenario data and bot pairings over many simulated games, and report "
                       "what each change does (win rates, balance, margins, length, decisiveness, drama).")
out = Console()
err = Console(stderr=True)


def leave(code: int, ray: str | None) -> typer.Exit:
    """The end of a run. On Ray the process ends here, once everything is stored and said, leaving the cluster
    for at most a few seconds: Ray's own shutdown at exit waits on a head that may be gone or paused (and a second
    Ctrl-C would not cut it short)."""
    if ray:
        from warroom.lab.cluster import leave as leave_cluster

        leave_cluster()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return typer.Exit(code)


def check_address(ray: str | None, title: str) -> None:
    """A `--ray` address's form, checked before anything is made: exit 1 with what to give."""
    if not ray:
        return
    from warroom.lab.cluster import head_of
    from warroom.lab.errors import LabRunError

    try:
        head_of(ray)
    except LabRunError as exc:
        raise fail([str(exc)], title) from exc


def default_out(spec: Path) -> Path:
    return spec.with_name(spec.stem + "-results")


def fail(problems: list[str], title: str) -> typer.Exit:
    err.print(f"[bold red]{escape(title)}[/bold red]")
    for p in problems:
        err.print(f"  - {p}", markup=False)
    return typer.Exit(1)


def print_spec_problems(path: Path) -> Any:
    """The spec at `path`, or every problem printed and exit 1 (`warroom validate` and `lab run` alike)."""
    from warroom.lab.spec import LabSpecError, read_spec

    try:
        return read_spec(path)
    except LabSpecError as exc:
        raise fail(exc.problems, f"{path}: {len(exc.problems)} problem(s)") from exc


@lab.command()
def run(
    spec_path: Annotated[Path, typer.Argument(metavar="SPEC", help="the sweep spec (TOML with a [lab] table)")],
    out_dir: Annotated[Path | None, typer.Option(
        "--out", help="results folder (default: beside the spec, SPEC-results); the same folder resumes")] = None,
    jobs: Annotated[int, typer.Option(min=1, help="worker processes on this machine")] = 1,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS", help="play on the Ray cluster whose head is at HOST:PORT")] = None,
) -> None:
    """Play every cell of a sweep spec, storing each finished task; run it again to go on after a stop."""
    from warroom.lab.errors import LabRunError
    from warroom.lab.run import run as play
    from warroom.lab.store import LabStoreError, Store

    spec = print_spec_problems(spec_path)
    check_address(ray, "no sweep")  # before the folder: a malformed address leaves nothing on disk
    folder = out_dir or default_out(spec_path)
    try:
        store = Store.open(folder, spec)
    except LabStoreError as exc:
        raise fail([str(exc)], "cannot store the results") from exc
    total = len(spec.cells) * spec.games
    stored = sum(b - a for c in spec.cells for a, b in store.done(c))
    out.print(f"{escape(spec.name)}: {len(spec.cells)} cells × {spec.games:,} games; results in {escape(str(folder))}"
              + (f" ({stored:,} games stored already)" if stored else ""))
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=err) as progress:
            task = progress.add_task("games", total=total, completed=stored)
            played = play(spec, store, jobs=jobs, ray_address=ray, progress=lambda n: progress.advance(task, n),
                          notice=lambda line: progress.console.print(f"note: {line}", markup=False))
    except KeyboardInterrupt:
        done = sum(b - a for c in spec.cells for a, b in store.done(c))
        err.print(f"interrupted: {done:,} of {total:,} games stored; run the same command to go on")
        raise leave(130, ray) from None
    except (LabRunError, LabStoreError) as exc:
        fail([str(exc)], "the sweep stopped")
        raise leave(1, ray) from exc
    out.print(f"played {played:,} games; `warroom lab report {escape(str(folder))}` for the metrics")
    if ray:
        raise leave(0, ray)


@lab.command()
def report(
    folder: Annotated[Path, typer.Argument(help="a results folder of `lab run`")],
    as_json: Annotated[bool, typer.Option("--json", help="the metrics as JSON on standard output")] = False,
) -> None:
    """Each cell's metrics with their 95 % intervals; writes report.html (plots and tables, readable offline),
    metrics.json and games.parquet (every game, with its cell's scenario, bots and swept values) into the folder."""
    from warroom.lab.html import games_of, label
    from warroom.lab.report import build
    from warroom.lab.store import LabStoreError

    warnings: list[str] = []
    try:
        got = build(folder, warnings.append)
    except LabStoreError as exc:
        raise fail([str(exc)], "no report") from exc
    for w in warnings:  # what could not be written: the report is still shown
        err.print(f"warning: {w}", markup=False)
    if as_json:
        typer.echo(json.dumps(got, indent=1, ensure_ascii=False))
        return
    camps = got["camps"]
    scenarios = {c["scenario"] for c in got["cells"]}
    table = Table(title=f"{got['name']}: {sum(c['metrics']['games'] for c in got['cells']):,} games "
                        f"(95 % intervals: in parentheses for rates, ± for means)", title_justify="left")
    heads = [*(["scenario"] if len(scenarios) > 1 else []), "bots",
             *(label(p, got["swept"]) for p in got["swept"]), "games", f"{camps[0]} win",
             f"{camps[1]} win", "draw", "balance", "margin", "turns", "decided", "leads", "drama"]
    for head in heads:
        table.add_column(head, justify="left" if head in ("scenario", "bots") else "right")

    def pct(r: dict[str, Any]) -> str:
        return "–" if r["rate"] is None else f"{r['rate']:.0%} ({r['ci95'][0]:.0%}–{r['ci95'][1]:.0%})"

    def num(m: dict[str, Any]) -> str:
        return "–" if m["mean"] is None else f"{m['mean']:.3g}±{(m['ci95'][1] - m['ci95'][0]) / 2:.2g}"

    for c in got["cells"]:
        m = c["metrics"]
        table.add_row(*([c["scenario"]] if len(scenarios) > 1 else []), " v ".join(c["bots"].values()),
                      *(str(c["changes"].get(p, "")) for p in got["swept"]), games_of(got, m),
                      pct(m["wins"][camps[0]]), pct(m["wins"][camps[1]]), pct(m["wins"]["draw"]),
                      "–" if m["balance"]["value"] is None else f"{m['balance']['value']:.2f}",
                      num(m["margin"]), num(m["length"]), num(m["decided_share"]), num(m["lead_changes"]),
                      num(m["drama"]))
    out.print(table)
    for c in got["cells"]:
        past = c["metrics"].get("historical")
        if past is not None and c["published"] and past["rate"] is not None:
            out.print(f"history: {c['scenario']}, {' v '.join(c['bots'].values())}: the real result "
                      f"({past['outcome']}) in {past['rate']:.1%} of games ({past['ci95'][0]:.1%}–"
                      f"{past['ci95'][1]:.1%})", markup=False)
    out.print("balance: 1 less the gap between the win rates; decided: the share of the game after which the "
              "winner always led; leads: lead changes a game; drama: the winner's worst deficit")
    if not warnings:
        out.print(f"report.html, metrics.json and games.parquet written to {escape(str(folder))}")


@lab.command()
def tune(
    spec_path: Annotated[Path, typer.Argument(metavar="SPEC", help="a sweep spec with a [lab.tune] table")],
    jobs: Annotated[int, typer.Option(min=1, help="worker processes on this machine")] = 1,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS", help="play on the Ray cluster whose head is at HOST:PORT")] = None,
    out_file: Annotated[Path | None, typer.Option(
        "--out", help="where the trials and the result go as JSON (default: beside the spec, SPEC-tune.json)")] = None,
) -> None:
    """Search the [lab.tune] paths for the values that bring the target metric to its goal, then confirm the best
    on fresh seeds."""
    from warroom.lab.errors import LabRunError
    from warroom.lab.tune import run_tune

    spec = print_spec_problems(spec_path)
    check_address(ray, "nothing to tune")
    if spec.tune is None:
        raise fail([f"{spec_path} has no [lab.tune] table: say the target, goal, tolerance and the paths to "
                    "search ([lab.tune.search])"], "nothing to tune")
    t = spec.tune
    total = t.trials * t.games + t.confirm
    out.print(f"tuning {', '.join(p for p, _ in t.search)} of {t.scenario} for {t.target} = {t.goal:g} ± "
              f"{t.tolerance:g} ({', '.join(f'{s} {b}' for s, b in t.bots)}): {t.trials} trials of {t.games:,} games, "
              f"then {t.confirm:,} on fresh seeds", markup=False)
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=err) as progress:
            task = progress.add_task("games", total=total)
            got = run_tune(spec, jobs=jobs, ray_address=ray, progress=lambda n: progress.advance(task, n),
                           notice=lambda line: progress.console.print(f"note: {line}", markup=False))
    except KeyboardInterrupt:
        err.print("interrupted: nothing was stored (a tune is short; run it again)")
        raise leave(130, ray) from None
    except LabRunError as exc:
        fail([str(exc)], "the tune stopped")
        raise leave(1, ray) from exc
    table = Table(title="trials (the same seeds for each)", title_justify="left")
    from warroom.lab.html import label

    paths = [p for p, _ in t.search]
    for head in ("trial", *(label(p, paths) for p in paths), t.target, "95 % interval", "distance"):
        table.add_column(head, justify="right")
    for r in got["trials"]:
        table.add_row(str(r["trial"]), *(str(v) for v in r["values"].values()),
                      "–" if r["metric"] is None else f"{r['metric']:.4g}",
                      "–" if r["ci95"][0] is None else f"{r['ci95'][0]:.3g}–{r['ci95'][1]:.3g}",
                      "–" if r["distance"] is None else f"{r['distance']:.3g}")
    out.print(table)
    best, conf = got["best"], got["confirmed"]
    said = ", ".join(f"{p} = {v!r}" for p, v in best["values"].items())
    out.print(f"best: {said}: {t.target} {best['metric']:.4g} on the trials' seeds", markup=False)
    verdict = "within" if conf["within_tolerance"] else "NOT within"
    out.print(f"confirmed on {conf['games']:,} fresh games: {t.target} {conf['metric']:.4g} "
              f"(95 % {conf['ci95'][0]:.3g}–{conf['ci95'][1]:.3g}), {verdict} {t.goal:g} ± {t.tolerance:g}",
              markup=False)
    target = out_file or spec_path.with_name(spec_path.stem + "-tune.json")
    try:
        target.write_text(json.dumps(got, indent=1, ensure_ascii=False), encoding="utf-8")
    except OSError as exc:
        fail([f"cannot write {target} ({exc.strerror or exc}); the result is printed above"], "not saved")
        raise leave(1, ray) from exc
    out.print(f"trials and result in {escape(str(target))}")
    if ray:
        raise leave(0, ray)
