"""Where a sweep's results are kept: a folder holding the spec as it was run, its cells, and one Parquet file of
per-game rows for each finished task (`parts/<cell id>/<first game>-<last game + 1>.parquet`).

A part is written to a temporary name and renamed when complete, so a run killed at any moment leaves only whole
parts; running the same spec again plays only the games no part holds. The parts together are one Parquet
dataset a designer can open in a notebook (`pyarrow.dataset.dataset(folder / "parts")`, or `lab report`'s
`games.parquet`, which adds each cell's scenario, bots and swept values).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from warroom.core.errors import WarroomError
from warroom.lab.spec import Cell, Spec

FIELDS: list[pa.Field[Any]] = [
    pa.field("game", pa.int64()), pa.field("seed", pa.int64()), pa.field("outcome", pa.string()),
    pa.field("winner", pa.string()), pa.field("diff", pa.int64()), pa.field("turns", pa.int64()),
    pa.field("lead_changes", pa.int64()), pa.field("decided", pa.int64()), pa.field("drama", pa.float64()),
    pa.field("trace", pa.list_(pa.float64())),
]
SCHEMA = pa.schema(FIELDS)
"""One row a game: its number in the cell and its seed; the outcome, the winning camp ('' a draw) and the score
difference (`GameSummary`); its turns; how often the lead changed hands, the turn from which the eventual winner
always led and the most it was behind (none for a draw); and the first camp's lead turn by turn."""
PART = re.compile(r"(\d+)-(\d+)\.parquet$")


class LabStoreError(WarroomError, ValueError):
    """A results folder that cannot be used: another spec's, unreadable, or a disk that refuses a write."""


class Store:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.parts = folder / "parts"

    @classmethod
    def open(cls, folder: Path, spec: Spec) -> Store:
        """The results folder of `spec`: made if new; one holding another spec's results is refused."""
        store = cls(folder)
        kept = folder / "spec.toml"
        try:
            if kept.is_file():
                if kept.read_text(encoding="utf-8") != spec.text:
                    raise LabStoreError(f"{folder} holds the results of another spec (its spec.toml differs from "
                                        "this one): give another --out, or move that folder away")
            elif folder.exists() and any(folder.iterdir()):
                raise LabStoreError(f"{folder} is not empty and holds no sweep: give another --out")
            else:
                store.parts.mkdir(parents=True, exist_ok=True)
                store._write_text(folder / "cells.json", json.dumps([c.to_json() for c in spec.cells], indent=1))
                store._write_text(kept, spec.text)
        except OSError as exc:
            raise LabStoreError(f"{folder}: cannot be used ({exc.strerror or exc})") from exc
        return store

    @classmethod
    def existing(cls, folder: Path) -> tuple[Store, str, list[dict[str, Any]]]:
        """A results folder to report on: the store, the spec text it was run with and its cells."""
        try:
            text = (folder / "spec.toml").read_text(encoding="utf-8")
            cells = json.loads((folder / "cells.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LabStoreError(f"{folder} holds no sweep results (spec.toml and cells.json): {exc}") from exc
        return cls(folder), text, cells

    def _write_text(self, path: Path, text: str) -> None:
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise

    def done(self, cell: Cell) -> set[tuple[int, int]]:
        """The (first, last + 1) game ranges of a cell already stored."""
        folder = self.parts / cell.id
        if not folder.is_dir():
            return set()
        return {(int(m.group(1)), int(m.group(2))) for p in folder.iterdir() if (m := PART.match(p.name))}

    def put(self, cell: Cell, start: int, stop: int, rows: dict[str, list[Any]]) -> None:
        """Store one task's games, whole or not at all."""
        folder = self.parts / cell.id
        path = folder / f"{start:09d}-{stop:09d}.parquet"
        tmp = folder / f".{path.name}.tmp"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            pq.write_table(pa.table(rows, schema=SCHEMA), tmp)
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise LabStoreError(f"cannot store games {start}-{stop - 1} of cell {cell.id} in {folder} "
                                f"({exc.strerror or exc}); the games stored before are kept: free some space and "
                                "run the same command again to go on") from exc

    def games(self, cell_id: str) -> pa.Table:
        """Every stored game of a cell, in game order."""
        files = sorted(p for p in (self.parts / cell_id).glob("*.parquet")) if (self.parts / cell_id).is_dir() \
            else []
        if not files:
            return SCHEMA.empty_table()
        table = pa.concat_tables(pq.read_table(f, schema=SCHEMA) for f in files)
        return table.sort_by("game")

    def cells_stored(self) -> Iterator[str]:
        if self.parts.is_dir():
            yield from sorted(p.name for p in self.parts.iterdir() if p.is_dir())
