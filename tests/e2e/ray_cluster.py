"""Real Ray clusters on this machine for the Ray tests (tests/e2e/test_lab_cli.py, tests/e2e/test_ray_backend.py),
and the one cluster (a head and a worker node) that those tests share.

A cluster costs some ten CPU seconds and twenty of wall to start (each node's `ray start`, raylet, agents and first
workers), so the tests that need a plain cluster (no token authentication) share one, started at the first of
them and stopped as soon as the next test does not use it (not at the end of the session: an idle cluster still
costs CPU while the worker goes on with other tests, or starts clusters of its own). A test may kill its nodes
(the lost-worker test does, and starts them again); the next test given the cluster gets it only if its last head
and worker still run, else a new one.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

GROUP = "ray"
RAY = pytest.mark.xdist_group(GROUP)
"""The Ray tests share one worker of a parallel run (make test): they start and kill clusters on this machine, and
Ray, given no address, joins the cluster last started here. The other tests run local processes only, and go to
any worker."""
BIN = Path(sys.executable).parent


class RayCluster:
    """A real Ray cluster on this machine, each node (its raylet, object store and workers; the head's GCS too) the
    process group of a `ray start --block`, so that a test can kill a node outright and start it again."""

    def __init__(self, folder: Path, token: str | None = None) -> None:
        self.ray = shutil.which("ray", path=str(BIN)) or str(BIN / "ray")
        self.folder = folder
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.address = f"127.0.0.1:{self.port}"
        # a cluster on loopback for the test: no token authentication, which recent Ray turns on for a head once a
        # token file exists in ~/.ray (the worker node and the driver would need it); a dead node is noticed in
        # about 2 s rather than 15; no worker process started ahead for the first driver (Ray's prestart), which
        # here is a trial join or a check with no task, the worker then stopped unused (the tasks start their own).
        # Ray's default folder for sessions: the head makes its session the latest there, and the worker node and
        # the driver find the head's credentials through it.
        self.env = {**without_tokens(), "RAY_USAGE_STATS_ENABLED": "0", "RAY_health_check_period_ms": "500",
                    "RAY_health_check_failure_threshold": "3", "RAY_prestart_worker_first_driver": "0"}
        self.env.update({"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token} if token else {"RAY_AUTH_MODE": "disabled"})
        self.nodes: list[subprocess.Popen[bytes]] = []
        self.heads: list[bool] = []  # whether each of `nodes` was started as a head

    def start(self, *how: str) -> subprocess.Popen[bytes]:
        log = self.folder / f"node-{len(self.nodes)}.log"
        # No log monitor: it streams the workers' output to the drivers, and every driver here (the test's and the
        # lab's) joins with log_to_driver=False, so it would only cost each node start another Python process.
        with log.open("wb") as sink:
            node = subprocess.Popen([self.ray, "start", *how, "--node-ip-address", "127.0.0.1", "--num-cpus", "1",
                                     "--disable-usage-stats", "--include-log-monitor=false", "--block"],
                                    env=self.env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
        self.nodes.append(node)
        self.heads.append("--head" in how)
        deadline = time.monotonic() + 120
        while b"--block" not in log.read_bytes():  # said once the node has joined, before it blocks
            assert node.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.1)
        return node

    def head(self) -> subprocess.Popen[bytes]:
        # No autoscaler monitor (`--no-monitor`, another Python process on the head polling the GCS): the test's
        # cluster has the nodes it starts, and nothing would scale it.
        return self.start("--head", "--port", str(self.port), "--include-dashboard=false", "--no-monitor")

    def worker(self) -> subprocess.Popen[bytes]:
        return self.start("--address", self.address)

    def running(self) -> bool:
        """Whether the nodes started last are a head and a worker, both still running."""
        return self.heads[-2:] == [True, False] and all(node.poll() is None for node in self.nodes[-2:])

    @staticmethod
    def kill(node: subprocess.Popen[bytes]) -> None:
        os.killpg(node.pid, signal.SIGKILL)
        node.wait()

    def stop(self) -> None:
        for node in self.nodes:
            if node.poll() is None:
                self.kill(node)
            else:
                with contextlib.suppress(ProcessLookupError):  # what a killed node left behind
                    os.killpg(node.pid, signal.SIGKILL)


def without_tokens() -> dict[str, str]:
    """This process's environment less Ray's authentication settings."""
    return {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH_")}


_shared: list[RayCluster] = []
"""The cluster the Ray tests share, while it is up."""


def stop_shared() -> None:
    while _shared:
        _shared.pop().stop()


def in_group(item: pytest.Item | None) -> bool:
    return item is not None and any(mark.args[:1] == (GROUP,) or mark.kwargs.get("name") == GROUP
                                    for mark in item.iter_markers("xdist_group"))


class _StopAfterTheGroup:
    """Stops the shared cluster once the next test to run on this worker does not use it (or there is none): the
    token test, which starts clusters of its own, runs with no idle cluster beside it."""

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None) -> None:
        if "ray_cluster" not in getattr(nextitem, "fixturenames", ()):
            stop_shared()


@pytest.fixture()
def ray_cluster(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                monkeypatch: pytest.MonkeyPatch) -> Iterator[RayCluster]:
    """A real cluster of a head and one worker node (`nodes[-2:]`), running, without token authentication: the
    one the Ray tests share (started at the first of them), or a new one if a test before left it down."""
    pytest.importorskip("ray")
    assert in_group(request.node), "a test given the shared Ray cluster belongs to the xdist group 'ray'"
    if _shared and not _shared[0].running():
        stop_shared()
    if not _shared:
        plugins = request.config.pluginmanager
        if not plugins.has_plugin("warroom-shared-ray-cluster"):
            plugins.register(_StopAfterTheGroup(), "warroom-shared-ray-cluster")
            atexit.register(stop_shared)
        cluster = RayCluster(tmp_path_factory.mktemp("ray-cluster"))
        _shared.append(cluster)  # before its nodes start: stopped whatever happens next
        cluster.head()
        cluster.worker()
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    yield _shared[0]
