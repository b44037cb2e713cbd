"""The balance lab from the command line: a sweep run and reported; a run killed midway and resumed gives the
games an uninterrupted one gives; bad specs and bad addresses answered with their problem named; and a sweep on
a real Ray cluster (a head and a worker process, started here) equal to the local run, cell by cell."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from warroom.lab.run import run
from warroom.lab.spec import read_spec
from warroom.lab.store import Store

BIN = Path(sys.executable).parent
WARROOM = str(BIN / "warroom")

SPEC = """
[lab]
name = "Lorraine: stacking"
scenarios = ["lorraine"]
games = 12
seed = 5
chunk = 5

[[lab.pairing]]
allies = "heuristic"
axis = "random"

[lab.sweep]
"scenario.toml:rules.stacking" = [0, 2]
"""


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WARROOM, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "COLUMNS": "200"})


def games_of(folder: Path) -> dict[str, list[dict[str, Any]]]:
    store = Store(folder)
    return {cell: store.games(cell).to_pylist() for cell in store.cells_stored()}


def test_a_sweep_is_validated_run_and_reported(tmp_path: Path) -> None:
    spec = tmp_path / "stacking.toml"
    spec.write_text(SPEC, encoding="utf-8")
    checked = cli("validate", str(spec))
    assert checked.returncode == 0, checked.stderr
    assert "OK: sweep 'Lorraine: stacking': 2 cells (scenario.toml:rules.stacking swept) × 12 games = 24 games" \
        in checked.stdout
    done = cli("lab", "run", str(spec), "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert "played 24 games" in done.stdout and (tmp_path / "stacking-results" / "spec.toml").read_text() == SPEC
    again = cli("lab", "run", str(spec))
    assert again.returncode == 0 and "24 games stored already" in again.stdout and "played 0 games" in again.stdout
    shown = cli("lab", "report", str(tmp_path / "stacking-results"))
    assert shown.returncode == 0, shown.stderr
    assert "heuristic v random" in shown.stdout and "stacking" in shown.stdout and "balance" in shown.stdout
    got = json.loads(cli("lab", "report", str(tmp_path / "stacking-results"), "--json").stdout)
    assert [c["changes"] for c in got["cells"]] == [{"scenario.toml:rules.stacking": 0},
                                                    {"scenario.toml:rules.stacking": 2}]
    assert all(c["metrics"]["games"] == 12 for c in got["cells"]) and got["camps"] == ["allies", "axis"]
    table = pq.read_table(tmp_path / "stacking-results" / "games.parquet")
    assert table.num_rows == 24 and {"cell", "scenario", "bots", "scenario.toml:rules.stacking", "outcome",
                                     "trace"} <= set(table.column_names)
    assert json.loads((tmp_path / "stacking-results" / "metrics.json").read_text()) == got


def test_bad_input_is_answered_with_its_problem_named(tmp_path: Path) -> None:
    spec = tmp_path / "bad.toml"
    spec.write_text(SPEC.replace('"scenario.toml:rules.stacking" = [0, 2]', '"rules.stackin" = [1]'))
    for args in (("validate", str(spec)), ("lab", "run", str(spec))):
        got = cli(*args)
        assert got.returncode == 1 and "1 problem(s)" in got.stderr and "no key 'stackin' in rules" in got.stderr
    good = tmp_path / "good.toml"
    good.write_text(SPEC)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    got = cli("lab", "run", str(good), "--ray", f"127.0.0.1:{port}")
    assert got.returncode == 1 and f"no Ray cluster answers at 127.0.0.1:{port}" in got.stderr
    assert not any((tmp_path / "good-results" / "parts").rglob("*.parquet"))
    got = cli("lab", "report", str(tmp_path / "nowhere"))
    assert got.returncode == 1 and "holds no sweep results" in got.stderr
    (tmp_path / "other.toml").write_text(SPEC.replace("games = 12", "games = 13"))
    got = cli("lab", "run", str(tmp_path / "other.toml"), "--out", str(tmp_path / "good-results"))
    assert got.returncode == 1 and "holds the results of another spec" in got.stderr


def test_a_run_killed_midway_goes_on_to_the_games_an_uninterrupted_run_plays(tmp_path: Path) -> None:
    text = SPEC.replace('"lorraine"', '"narvik"').replace("games = 12", "games = 6").replace("chunk = 5", "chunk = 1")
    text = text.replace('allies = "heuristic"\naxis = "random"', 'german = "random"\nallied = "random"')
    text = text.replace('"scenario.toml:rules.stacking" = [0, 2]', '"rules.toml:naval.landing_lifts" = [2]')
    spec = tmp_path / "narvik.toml"
    spec.write_text(text)
    out = tmp_path / "killed"
    proc = subprocess.Popen([WARROOM, "lab", "run", str(spec), "--out", str(out)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(list(out.rglob("*.parquet"))) < 2:
            assert proc.poll() is None and time.monotonic() < deadline, "the run ended before it could be killed"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    stopped = games_of(out)
    assert 2 <= sum(len(v) for v in stopped.values()) < 6  # killed midway, with whole tasks stored
    resumed = cli("lab", "run", str(spec), "--out", str(out))
    assert resumed.returncode == 0, resumed.stderr
    whole = read_spec(spec)
    run(whole, Store.open(tmp_path / "whole", whole))
    assert games_of(out) == games_of(tmp_path / "whole") and len(next(iter(games_of(out).values()))) == 6
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


@pytest.fixture()
def ray_cluster(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A real Ray cluster on this machine: a head and one worker node, each its own processes."""
    pytest.importorskip("ray")
    ray_bin = shutil.which("ray", path=str(BIN)) or str(BIN / "ray")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # Ray's default folder for its sessions: the head makes its session the latest there, and the worker node and
    # this process (the driver) find the head's credentials through it (a folder of the test's own would leave
    # them reading whatever session another Ray run left as the latest)
    # a cluster on loopback for the test: no token authentication, which recent Ray turns on for a head once a
    # token file exists in ~/.ray (the worker node and this driver would need it)
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
    common = ["--num-cpus", "1", "--disable-usage-stats"]
    subprocess.run([ray_bin, "start", "--head", "--port", str(port), "--node-ip-address", "127.0.0.1",
                    "--include-dashboard=false", *common], check=True, env=env, capture_output=True, timeout=120)
    try:
        subprocess.run([ray_bin, "start", "--address", f"127.0.0.1:{port}", "--node-ip-address", "127.0.0.1",
                        *common], check=True, env=env, capture_output=True, timeout=120)
        yield f"127.0.0.1:{port}"
    finally:
        import ray

        ray.shutdown()
        subprocess.run([ray_bin, "stop", "--force"], env=env, capture_output=True, timeout=120)


def test_a_sweep_on_a_real_ray_cluster_equals_the_local_run_cell_by_cell(tmp_path: Path, ray_cluster: str) -> None:
    import ray

    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(SPEC.replace("chunk = 5", "chunk = 3"))
    spec = read_spec(spec_path)
    run(spec, Store.open(tmp_path / "on-ray", spec), ray_address=ray_cluster)
    nodes = [n for n in ray.nodes() if n["Alive"]]  # type: ignore[no-untyped-call]
    assert len(nodes) == 2  # a head and a worker
    assert ray.cluster_resources()["CPU"] == 2  # type: ignore[no-untyped-call]
    local = read_spec(spec_path)
    run(local, Store.open(tmp_path / "local", local), jobs=2)
    on_ray = games_of(tmp_path / "on-ray")
    assert on_ray == games_of(tmp_path / "local") and sorted(len(v) for v in on_ray.values()) == [12, 12]
