"""Where a sweep's results are kept: a folder holding the spec as it was run, its cells, and one Parquet file of
per-game rows for each finished task (`parts/<cell id>/<first game>-<last game + 1>.parquet`).

A part is written to a temporary name and renamed when complete, so a run killed at any moment leaves only whole
parts; running the same spec again plays only the games no part holds. The parts together are one Parquet
dataset a designer can open in a notebook (`pyarrow.dataset.dataset(folder / "parts")`, or `lab report`'s
`games.parquet`, which adds each cell's scenario, bots and swept values).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from warroom.core.errors import WarroomError
from warroom.lab.overrides import source_of
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


def forget(tmp: Path) -> None:
    """Remove a half-written file, if the disk lets us (a read-only one does not)."""
    with contextlib.suppress(OSError):
        tmp.unlink(missing_ok=True)


class LabStoreError(WarroomError, ValueError):
    """A results folder that cannot be used: another spec's, unreadable, or a disk that refuses a write."""


def fingerprint(scenario: str) -> str:
    """A digest of a scenario's data files: results of one cell never mix games of two versions of its data."""
    source = source_of(scenario)
    files = sorted(source.glob("*.toml")) if source.is_dir() else [source]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


class Store:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.parts = folder / "parts"

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        """The folder held for one run: a second run on it at the same time is refused."""
        try:
            lock = (self.folder / ".lock").open("a")
        except OSError as exc:
            raise LabStoreError(f"{self.folder}: cannot be used ({exc.strerror or exc})") from exc
        with lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise LabStoreError(f"another `lab run` is using {self.folder}: wait for it to end, or stop it "
                                    "first") from None
            self.sweep_leftovers()
            yield

    def sweep_leftovers(self) -> None:
        """Remove the half-written parts of a run killed while writing one (`parts/<cell>/.<part>.<pid>.tmp`): only
        a run writes parts, and with the folder held no other run is writing any. (The folder's own temporary files
        are left alone: `lab report` writes its files there without holding the folder.)"""
        for tmp in self.parts.glob("*/.*.parquet.*.tmp"):
            forget(tmp)

    @classmethod
    def open(cls, folder: Path, spec: Spec) -> Store:
        """The results folder of `spec`: made if new; one holding another spec's results, or results from other
        data of its scenarios, is refused."""
        store = cls(folder)
        kept = folder / "spec.toml"
        data = {name: fingerprint(name) for name in sorted({c.scenario for c in spec.cells})}
        try:
            if kept.is_file():
                if kept.read_text(encoding="utf-8") != spec.text:
                    raise LabStoreError(f"{folder} holds the results of another spec (its spec.toml differs from "
                                        "this one): give another --out, or move that folder away")
                before = json.loads((folder / "data.json").read_text(encoding="utf-8"))
                changed = [name for name in data if before.get(name) != data[name]]
                if changed:
                    raise LabStoreError(f"the data of {', '.join(map(repr, changed))} changed since the games in "
                                        f"{folder} were played: its games would mix two versions; give another --out")
            elif folder.exists() and any(folder.iterdir()):
                raise LabStoreError(f"{folder} is not empty and holds no sweep: give another --out")
            else:
                store.parts.mkdir(parents=True, exist_ok=True)
                store._write_text(folder / "cells.json", json.dumps([c.to_json() for c in spec.cells], indent=1))
                store._write_text(folder / "data.json", json.dumps(data, indent=1))
                store._write_text(kept, spec.text)
        except (OSError, ValueError) as exc:
            if isinstance(exc, LabStoreError):
                raise
            raise LabStoreError(f"{folder}: cannot be used ({getattr(exc, 'strerror', None) or exc})") from exc
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
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            forget(tmp)
            raise

    def done(self, cell: Cell) -> set[tuple[int, int]]:
        """The (first, last + 1) game ranges of a cell already stored whole (a part that cannot be read, or holds
        fewer games than its name says, is played again)."""
        folder = self.parts / cell.id
        if not folder.is_dir():
            return set()
        out = set()
        for p in folder.iterdir():
            m = PART.match(p.name)
            if m is None:
                continue
            start, stop = int(m.group(1)), int(m.group(2))
            try:
                whole = pq.read_metadata(p).num_rows == stop - start
            except (OSError, pa.ArrowException):
                whole = False
            if whole:
                out.add((start, stop))
        return out

    def put(self, cell: Cell, start: int, stop: int, rows: dict[str, list[Any]]) -> None:
        """Store one task's games, whole or not at all (written to a name of its own, flushed to the disk, then
        renamed)."""
        folder = self.parts / cell.id
        path = folder / f"{start:09d}-{stop:09d}.parquet"
        tmp = folder / f".{path.name}.{os.getpid()}.tmp"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            pq.write_table(pa.table(rows, schema=SCHEMA), tmp)
            with tmp.open("rb") as f:
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as exc:
            forget(tmp)
            raise LabStoreError(f"cannot store games {start}-{stop - 1} of cell {cell.id} in {folder} "
                                f"({exc.strerror or exc}); the games stored before are kept: free some space and "
                                "run the same command again to go on") from exc

    def games(self, cell_id: str) -> pa.Table:
        """Every stored game of a cell, in game order; a part that cannot be read is named."""
        files = sorted(p for p in (self.parts / cell_id).glob("*.parquet")) if (self.parts / cell_id).is_dir() \
            else []
        if not files:
            return SCHEMA.empty_table()
        tables = []
        for f in files:
            try:
                tables.append(pq.read_table(f, schema=SCHEMA))
            except (OSError, pa.ArrowException) as exc:
                raise LabStoreError(f"{f} is damaged ({exc}): delete it and run the sweep again to play its games "
                                    "again; the other parts are kept") from exc
        return pa.concat_tables(tables).sort_by("game")

    def cells_stored(self) -> Iterator[str]:
        if self.parts.is_dir():
            yield from sorted(p.name for p in self.parts.iterdir() if p.is_dir())
