"""A sweep's report from its stored games: each cell's metrics (`lab.metrics`), written as metrics.json; the
page a designer reads (report.html, `lab.html`); and every game in one Parquet file (games.parquet) with its
cell's scenario, bots and swept values beside it, for a designer's own notebook."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from warroom import rulesets
from warroom.lab.calibration import historical
from warroom.lab.html import page
from warroom.lab.metrics import cell_metrics, rate
from warroom.lab.overrides import parse_path, source_of, value_at
from warroom.lab.store import LabStoreError, Store
from warroom.scenarios.loader import load_game_path


def build(folder: Path) -> dict[str, Any]:
    """The report of the sweep stored in `folder` (the games stored so far), written beside them."""
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
    report: dict[str, Any] = {"name": lab.get("name", folder.name), "seed": lab.get("seed", 0),
                              "games_a_cell": lab.get("games"), "camps": list(camps), "swept": swept, "cells": []}
    tables = []
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
            tables.append(pa.table({**extra, **games.to_pydict()}))
    _atomic(folder / "metrics.json", lambda p: p.write_text(json.dumps(report, indent=1, ensure_ascii=False),
                                                            encoding="utf-8"))
    if tables:
        everything = pa.concat_tables(tables, promote_options="default")
        _atomic(folder / "games.parquet", lambda p: pq.write_table(everything, p))
    _atomic(folder / "report.html", lambda p: p.write_text(page(report), encoding="utf-8"))
    return report


def published(cell: dict[str, Any]) -> bool:
    """Whether a cell plays its scenario as published: every swept value the scenario's own."""
    try:
        source = source_of(cell["scenario"])
        return all(value_at(source, parse_path(p)) == v for p, v in cell["changes"].items())
    except ValueError:
        return False


def _atomic(path: Path, write: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise LabStoreError(f"cannot write {path} ({exc.strerror or exc}); the stored games are kept") from exc
