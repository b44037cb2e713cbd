"""The balance lab from the command line: a sweep run and reported; a run killed midway and resumed gives the
games an uninterrupted one gives; bad specs and bad addresses answered with their problem named; and a sweep on
a real Ray cluster (a head and a worker process, started here: tests/e2e/ray_cluster.py) equal to the local run,
cell by cell."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from cli_process import warm
from ray_cluster import RAY, RayCluster, ray_cluster, without_tokens  # noqa: F401  (ray_cluster: the fixture, shared)

from warroom.lab.cluster import GRACE_ENV
from warroom.lab.run import run
from warroom.lab.spec import read_spec
from warroom.lab.store import Store
from warroom.lab.tune import run_tune

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


TUNE = """
[lab.tune]
target = "wins.allies"
goal = 0.5
tolerance = 0.05
trials = 3
games = 8
confirm = 8

[lab.tune.search]
"scenario.toml:rules.stacking" = [0, 2, 3]
"""


def cli(*args: str, timeout: float = 300, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WARROOM, *args], capture_output=True, text=True, timeout=timeout,
                          env={**(os.environ if env is None else env), "COLUMNS": "200"})


def forked(*args: str, timeout: float = 300, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`cli(*args)` forked from the warm command line (tests/e2e/cli_process.py), which spares each command the
    start-up of the interpreter and its imports: still a process of its own, with its own exit code and output.
    The commands are forked, but for the run with --jobs (its workers are processes of its own) and the runs that
    a test interrupts (Ctrl-C to the process group, SIGKILL), which start the console script, as a person does.
    Each forked run compared for equality is compared with a run in the test's own process (another interpreter,
    with its own hash seed). The token test's environments differ only in Ray's token settings and HOME, which are
    read only as a command joins Ray (`cli_process.VOLATILE`): one warm server serves them all."""
    ran = warm(args, {**(os.environ if env is None else env), "COLUMNS": "200"}, b"", None, timeout)
    return subprocess.CompletedProcess([WARROOM, *args], ran.code, ran.out_bytes.decode("utf-8"),
                                       ran.err_bytes.decode("utf-8"))


def games_of(folder: Path) -> dict[str, list[dict[str, Any]]]:
    store = Store(folder)
    return {cell: store.games(cell).to_pylist() for cell in store.cells_stored()}


def test_a_sweep_is_validated_run_and_reported(tmp_path: Path) -> None:
    spec = tmp_path / "stacking.toml"
    spec.write_text(SPEC, encoding="utf-8")
    checked = forked("validate", str(spec))
    assert checked.returncode == 0, checked.stderr
    assert "OK: sweep 'Lorraine: stacking': 2 cells (scenario.toml:rules.stacking swept) × 12 games = 24 games" \
        in checked.stdout
    done = cli("lab", "run", str(spec), "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert "played 24 games" in done.stdout and (tmp_path / "stacking-results" / "spec.toml").read_text() == SPEC
    again = forked("lab", "run", str(spec))
    assert again.returncode == 0 and "24 games stored already" in again.stdout and "played 0 games" in again.stdout
    shown = forked("lab", "report", str(tmp_path / "stacking-results"))
    assert shown.returncode == 0, shown.stderr
    assert "heuristic v random" in shown.stdout and "stacking" in shown.stdout and "balance" in shown.stdout
    got = json.loads(forked("lab", "report", str(tmp_path / "stacking-results"), "--json").stdout)
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
        got = forked(*args)
        assert got.returncode == 1 and "1 problem(s)" in got.stderr and "no key 'stackin' in rules" in got.stderr
    good = tmp_path / "good.toml"
    good.write_text(SPEC)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    got = forked("lab", "run", str(good), "--ray", f"127.0.0.1:{port}")
    assert got.returncode == 1 and f"no Ray cluster answers at 127.0.0.1:{port}" in got.stderr
    assert not any((tmp_path / "good-results" / "parts").rglob("*.parquet"))
    got = forked("lab", "report", str(tmp_path / "nowhere"))
    assert got.returncode == 1 and "holds no sweep results" in got.stderr
    (tmp_path / "other.toml").write_text(SPEC.replace("games = 12", "games = 13"))
    got = forked("lab", "run", str(tmp_path / "other.toml"), "--out", str(tmp_path / "good-results"))
    assert got.returncode == 1 and "holds the results of another spec" in got.stderr


def one_game_a_task(games: int) -> str:
    """`SPEC` at `games` a cell and one game a task: a run of many short tasks (some 30 ms each, pure Python), each
    stored as it ends, so that a run can be stopped midway however fast or loaded the machine is."""
    return SPEC.replace("games = 12", f"games = {games}").replace("chunk = 5", "chunk = 1")


def as_from_a_terminal() -> None:
    """A child's start as a shell's foreground job has it: SIGINT at its default and not blocked. In a long pytest
    worker of the whole suite, something earlier leaves SIGINT ignored or blocked for the worker's children (seen
    twice, its source not found), and the run then never hears the Ctrl-C."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_run_stopped_by_ctrl_c_then_killed_midway_goes_on_to_the_games_an_uninterrupted_run_plays(
        tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the run's whole process group, as a terminal sends it) stops a two-worker run with what is
    stored said and no worker left behind; a second run killed outright (SIGKILL) keeps whole tasks only; the
    third ends the sweep, and the games are an uninterrupted run's."""
    spec = tmp_path / "sweep.toml"
    spec.write_text(one_game_a_task(100))
    out = tmp_path / "stopped"
    command = [WARROOM, "lab", "run", str(spec), "--out", str(out)]
    with (tmp_path / "run.err").open("w+b") as said:
        proc = subprocess.Popen([*command, "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=said,
                                start_new_session=True, preexec_fn=as_from_a_terminal)
        try:
            wait_for(lambda: parts(out) >= 2, proc)
            os.killpg(proc.pid, signal.SIGINT)
            proc.wait(timeout=60)
            time.sleep(0.5)
            with pytest.raises(ProcessLookupError):  # the workers went with it
                os.killpg(proc.pid, 0)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        said.seek(0)
        stderr = " ".join(said.read().decode(errors="replace").split())
    first = sum(len(v) for v in games_of(out).values())
    assert proc.returncode == 130 and f"interrupted: {first} of 200 games stored; run the same command to go on" \
        in stderr, stderr
    assert "Traceback" not in stderr and 2 <= first < 200, stderr
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: parts(out) >= first + 1, proc)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    stopped = games_of(out)
    assert first < sum(len(v) for v in stopped.values()) < 200  # killed midway, with whole tasks stored
    resumed = forked("lab", "run", str(spec), "--out", str(out))
    assert resumed.returncode == 0, resumed.stderr
    whole = read_spec(spec)
    run(whole, Store.open(tmp_path / "whole", whole))
    assert games_of(out) == games_of(tmp_path / "whole") and [len(v) for v in games_of(out).values()] == [100, 100]
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


def parts(folder: Path) -> int:
    return len(list(folder.rglob("*.parquet")))


def wait_for(what: Callable[[], bool], proc: subprocess.Popen[bytes], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert proc.poll() is None and time.monotonic() < deadline, "the run ended before it was meant to"
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be stopped midway"


# The Ray tests run in this order, the token test (clusters of its own) first: the lost-worker test ends with a
# head and a worker started again, which the next test given the shared cluster (tests/e2e/test_ray_backend.py)
# then uses, where the other order stopped that cluster for the token test and started another after it.
@RAY
def test_a_cluster_with_token_authentication_takes_its_token_and_refuses_others_plainly(tmp_path: Path) -> None:
    """Recent Ray turns token authentication on for a head once a token exists on its machine. A run that gives
    no token, has one but does not send it, has none at all, or gives another, is refused at once with what to
    set, in a few lines (not Ray's retry a second), and no token appears in what it says; a run with the cluster's
    token plays the local run's games, and so does a tune."""
    pytest.importorskip("ray")
    token, other = secrets.token_hex(16), secrets.token_hex(16)
    cluster = RayCluster(tmp_path, token=token)
    home = tmp_path / "home"  # no ~/.ray/auth_token of this machine's
    home.mkdir()
    try:
        cluster.head()
        spec_path = tmp_path / "spec.toml"
        spec_path.write_text(SPEC)
        args = ("lab", "run", str(spec_path), "--out", str(tmp_path / "on-ray"), "--ray", cluster.address)
        bare = {**without_tokens(), "HOME": str(home)}
        mode = {**bare, "RAY_AUTH_MODE": "token"}
        for env, said in [
                (bare, "wants a token (Ray's token authentication) and this run gives none: set RAY_AUTH_MODE=token"),
                ({**bare, "RAY_AUTH_TOKEN": token}, "this run has one but does not send it: set RAY_AUTH_MODE=token"),
                (mode, "cannot be joined: RAY_AUTH_MODE=token, but this machine has no token"),
                ({**mode, "RAY_AUTH_TOKEN": other}, "refused this run's token: give the cluster's own")]:
            began = time.monotonic()
            got = forked(*args, env=env)
            text = " ".join(got.stderr.split())
            assert got.returncode == 1 and f"the Ray cluster at {cluster.address}" in text and said in text, got.stderr
            assert time.monotonic() - began < 15  # said as soon as Ray reports it, not after its 20 retries
            assert "gcs_client" not in got.stderr and "Traceback" not in got.stderr and len(got.stderr) < 700
            assert token not in got.stdout + got.stderr and other not in got.stdout + got.stderr
        joined = forked(*args, env={**bare, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token})
        assert joined.returncode == 0, joined.stderr
        assert token not in joined.stdout + joined.stderr
        tune_path = tmp_path / "tune.toml"  # a tune on the cluster too
        tune_path.write_text(SPEC.replace('[lab.sweep]\n"scenario.toml:rules.stacking" = [0, 2]\n', TUNE))
        tuned = forked("lab", "tune", str(tune_path), "--out", str(tmp_path / "tune.json"), "--ray", cluster.address,
                    env={**bare, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token})
        assert tuned.returncode == 0, tuned.stderr
    finally:
        cluster.stop()
    local = read_spec(spec_path)
    run(local, Store.open(tmp_path / "local", local))
    assert games_of(tmp_path / "on-ray") == games_of(tmp_path / "local")
    assert json.loads((tmp_path / "tune.json").read_text()) == json.loads(json.dumps(run_tune(read_spec(tune_path))))


@RAY
def test_a_sweep_on_a_real_ray_cluster_survives_a_lost_worker_and_a_killed_head(
        tmp_path: Path, ray_cluster: RayCluster) -> None:  # noqa: F811
    """The sweep runs on two nodes; one is killed and Ray plays its tasks again on the other; then the head is
    killed: the run stops saying so, with whole tasks stored. Started again on a new cluster at the same address,
    the same command plays only the rest, and the games equal the local run's, cell by cell."""
    nodes = subprocess.run(  # in a process of its own: Ray would otherwise stay in the test's process
        [sys.executable, "-c", "import ray, sys; ray.init(address=sys.argv[1], log_to_driver=False); "
         "print(len([n for n in ray.nodes() if n['Alive']]), int(ray.cluster_resources()['CPU']))",
         ray_cluster.address], capture_output=True, text=True, timeout=120, check=False)
    assert nodes.stdout.split()[-2:] == ["2", "2"], nodes.stderr  # a head and a worker, a CPU each
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(one_game_a_task(60))
    out = tmp_path / "on-ray"
    command = [WARROOM, "lab", "run", str(spec_path), "--out", str(out), "--ray", ray_cluster.address]
    head, worker = ray_cluster.nodes[-2:]
    with (tmp_path / "run.err").open("w+b") as said:
        # a killed head is given up after 4 s rather than 10 (the run asks it once a second): time the test
        # spent waiting and nothing else
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=said, start_new_session=True,
                                env={**os.environ, GRACE_ENV: "4"})
        try:
            wait_for(lambda: parts(out) >= 2, proc)
            ray_cluster.kill(worker)
            lost_worker = parts(out)
            wait_for(lambda: parts(out) >= lost_worker + 2, proc)  # the sweep goes on without it
            ray_cluster.kill(head)
            proc.wait(timeout=90)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        said.seek(0)
        stderr = said.read().decode(errors="replace")
    assert proc.returncode == 1, stderr
    assert f"the Ray cluster's head at {ray_cluster.address} stopped answering" in stderr, stderr
    assert "(for 4 s)" in " ".join(stderr.split()) and "games stored are kept" in " ".join(stderr.split()), stderr
    stored = sum(len(v) for v in games_of(out).values())
    assert 4 <= stored < 120 and not [p for p in out.rglob("*") if p.name.endswith(".tmp")]

    ray_cluster.head()
    ray_cluster.worker()
    resumed = forked("lab", "run", str(spec_path), "--out", str(out), "--ray", ray_cluster.address)
    assert resumed.returncode == 0, resumed.stderr
    assert f"({stored:,} games stored already)" in resumed.stdout and f"played {120 - stored:,} games" in resumed.stdout
    local = read_spec(spec_path)
    run(local, Store.open(tmp_path / "local", local), jobs=2)
    on_ray = games_of(out)
    assert on_ray == games_of(tmp_path / "local") and sorted(len(v) for v in on_ray.values()) == [60, 60]
