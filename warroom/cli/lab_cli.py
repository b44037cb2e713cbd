"""`warroom lab`: the balance lab's commands. `run` plays a sweep spec's cells (on this machine's cores, or a Ray
cluster), storing each finished task so that an interrupted run goes on where it stopped; `report` reads the
stored games and gives each cell's metrics."""

from __future__ import annotations

import json
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
    from warroom.lab.run import LabRunError
    from warroom.lab.run import run as play
    from warroom.lab.store import LabStoreError, Store

    spec = print_spec_problems(spec_path)
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
            played = play(spec, store, jobs=jobs, ray_address=ray, progress=lambda n: progress.advance(task, n))
    except KeyboardInterrupt:
        done = sum(b - a for c in spec.cells for a, b in store.done(c))
        err.print(f"interrupted: {done:,} of {total:,} games stored; run the same command to go on")
        raise typer.Exit(130) from None
    except (LabRunError, LabStoreError) as exc:
        raise fail([str(exc)], "the sweep stopped") from exc
    out.print(f"played {played:,} games; `warroom lab report {escape(str(folder))}` for the metrics")


@lab.command()
def report(
    folder: Annotated[Path, typer.Argument(help="a results folder of `lab run`")],
    as_json: Annotated[bool, typer.Option("--json", help="the metrics as JSON on standard output")] = False,
) -> None:
    """Each cell's metrics with their 95 % intervals; writes report.html (plots and tables, readable offline),
    metrics.json and games.parquet (every game, with its cell's scenario, bots and swept values) into the folder."""
    from warroom.lab.report import build
    from warroom.lab.store import LabStoreError

    try:
        got = build(folder)
    except LabStoreError as exc:
        raise fail([str(exc)], "no report") from exc
    if as_json:
        typer.echo(json.dumps(got, indent=1, ensure_ascii=False))
        return
    camps = got["camps"]
    scenarios = {c["scenario"] for c in got["cells"]}
    table = Table(title=f"{got['name']}: {sum(c['metrics']['games'] for c in got['cells']):,} games "
                        f"(95 % intervals: in parentheses for rates, ± for means)", title_justify="left")
    heads = [*(["scenario"] if len(scenarios) > 1 else []), "bots",
             *(p.rpartition(":")[2].rpartition(".")[2] for p in got["swept"]), "games", f"{camps[0]} win",
             f"{camps[1]} win", "draw", "balance", "margin", "turns", "decided", "leads", "drama"]
    for head in heads:
        table.add_column(head, justify="left" if head in ("scenario", "bots") else "right")

    def pct(r: dict[str, Any]) -> str:
        return f"{r['rate']:.0%} ({r['ci95'][0]:.0%}–{r['ci95'][1]:.0%})"

    def num(m: dict[str, Any]) -> str:
        return "–" if m["mean"] is None else f"{m['mean']:.3g}±{(m['ci95'][1] - m['ci95'][0]) / 2:.2g}"

    for c in got["cells"]:
        m = c["metrics"]
        table.add_row(*([c["scenario"]] if len(scenarios) > 1 else []), " v ".join(c["bots"].values()),
                      *(str(c["changes"].get(p, "")) for p in got["swept"]), f"{m['games']:,}",
                      pct(m["wins"][camps[0]]), pct(m["wins"][camps[1]]), pct(m["wins"]["draw"]),
                      "–" if m["balance"]["value"] is None else f"{m['balance']['value']:.2f}",
                      num(m["margin"]), num(m["length"]), num(m["decided_share"]), num(m["lead_changes"]),
                      num(m["drama"]))
    out.print(table)
    out.print("balance: 1 less the gap between the win rates; decided: the share of the game after which the "
              "winner always led; leads: lead changes a game; drama: the winner's worst deficit")
    out.print(f"report.html, metrics.json and games.parquet written to {escape(str(folder))}")
