"""A sweep's report from its stored games: each cell's metrics (`lab.metrics`), written as metrics.json; the
page a designer reads (report.html, `lab.html`); and every game in one Parquet file (games.parquet) with its
cell's scenario, bots and swept values beside it, for a designer's own notebook."""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from warroom import rulesets
from warroom.lab.calibration import historical
from warroom.lab.html import STAMP, drawn_from, page
from warroom.lab.metrics import cell_metrics, rate
from warroom.lab.overrides import parse_path, source_of, value_at
from warroom.lab.store import LabStoreError, Store, forget
from warroom.scenarios.loader import load_game_path


def build(folder: Path, warn: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The report of the sweep stored in `folder` (the games stored so far), written beside them. A file that
    cannot be written (a read-only folder, a full disk) is said to `warn` (else raised): the report is still
    returned, and the stored games are never touched. report.html is drawn again only if it was drawn from another
    report (or by other code, `drawn_already`): a report of the same games, `lab report --json` after `lab report`
    say, keeps the page it has."""
    store, text, cells = Store.existing(folder)
    lab = tomllib.loads(text).get("lab", {})
    try:
        sc = load_game_path(source_of(cells[0]["scenario"]))
    except (ValueError, IndexError) as exc:
        raise LabStoreError(f"{folder}: its first scenario cannot be loaded ({exc})") from exc
    camps = rulesets.of(sc).score_sides(sc)
    swept = list(lab.get("sweep", {}))
    history: dict[str, dict[str, str] | None] = {}
    for name in {c["scenario"] for c in cells}:
        try:
            source = source_of(name)
            history[name] = historical(source, load_game_path(source))
        except ValueError:
            history[name] = None
    system = rulesets.of(sc)
    report: dict[str, Any] = {"name": lab.get("name", folder.name), "seed": lab.get("seed", 0),
                              "games_a_cell": lab.get("games"), "camps": list(camps), "swept": swept,
                              "score": system.score_label or f"{camps[0]} VP less {camps[1]} VP", "cells": []}
    games_file = folder / "games.parquet"
    tmp = games_file.with_name(f".games.parquet.{os.getpid()}.tmp")
    writer: pq.ParquetWriter | None = None
    schemas: list[pa.Schema] = []
    failed: list[str] = []

    def write_games(table: pa.Table) -> None:  # one cell at a time: memory stays with one cell's games
        nonlocal writer
        if failed:
            return
        try:
            if writer is None:
                schemas.append(table.schema)
                writer = pq.ParquetWriter(tmp, table.schema)
            writer.write_table(table.cast(schemas[0]))
        except (OSError, pa.ArrowException) as exc:
            failed.append(f"cannot write {games_file} ({exc})")
    for c in cells:
        games = store.games(c["id"])
        metrics = cell_metrics(games, camps)
        past = history.get(c["scenario"])
        if past is not None:
            seen = sum(1 for o in games.column("outcome").to_pylist() if o == past["outcome"])
            metrics["historical"] = {"outcome": past["outcome"], **rate(seen, games.num_rows)}
        report["cells"].append({**c, "published": published(c), "metrics": metrics})
        if games.num_rows:
            n = games.num_rows
            extra = {"cell": [c["id"]] * n, "scenario": [c["scenario"]] * n,
                     "bots": [json.dumps(c["bots"], sort_keys=True)] * n,
                     **{path: [c["changes"].get(path)] * n for path in swept}}
            write_games(pa.table({**extra, **games.to_pydict()}))
        del games
    if writer is not None:
        try:
            writer.close()
            if not failed:
                os.replace(tmp, games_file)
        except OSError as exc:
            failed.append(f"cannot write {games_file} ({exc.strerror or exc})")
    if failed:
        forget(tmp)
    metrics_text = json.dumps(report, indent=1, ensure_ascii=False)
    drawn = drawn_from(metrics_text)
    writes: list[tuple[str, Callable[[Path], Any]]] = [
        ("metrics.json", lambda p: p.write_text(metrics_text, encoding="utf-8"))]
    if not drawn_already(folder / "report.html", drawn):  # its plots are most of a report's time
        writes.append(("report.html", lambda p: p.write_text(page(report, drawn), encoding="utf-8")))
    for name, write in writes:
        try:
            _atomic(folder / name, write)
        except LabStoreError as exc:
            failed.append(str(exc))
    for problem in failed:
        if warn is None:
            raise LabStoreError(problem)
        warn(problem)
    return report


def drawn_already(path: Path, drawn: str) -> bool:
    """Whether the page at `path` is whole and was drawn from what `drawn` digests (`html.drawn_from`: the same
    report, drawn by the same code): drawing it again would give the same page."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return STAMP.format(drawn) in text[:4096] and text.endswith("</body></html>")


def published(cell: dict[str, Any]) -> bool:
    """Whether a cell plays its scenario as published: every swept value the scenario's own."""
    try:
        source = source_of(cell["scenario"])
        return all(value_at(source, parse_path(p)) == v for p, v in cell["changes"].items())
    except ValueError:
        return False


def _atomic(path: Path, write: Any) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        forget(tmp)
        raise LabStoreError(f"cannot write {path} ({exc.strerror or exc}); the stored games are kept") from exc
