"""The Ray backend gives the same aggregates as local processes, on a real Ray cluster (a head and a worker node:
the one the Ray tests share, tests/e2e/ray_cluster.py). Runs only where Ray is installed: `pip install
'warroom[ray]'`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from ray_cluster import GROUP, RayCluster, ray_cluster, without_tokens  # noqa: F401  (ray_cluster: the fixture)

pytestmark = pytest.mark.xdist_group(GROUP)  # one Ray test at a time: see tests/e2e/ray_cluster.py

COMPARE = """
import json
import ray
from warroom.sim import simulate
bots = {"allies": "random", "axis": "random"}
local = simulate("lorraine", 40, 3, bots, chunk=10).report(("allies", "axis"))
try:
    on_ray = simulate("lorraine", 40, 3, bots, backend="ray", chunk=10).report(("allies", "axis"))
finally:
    ray.shutdown()
print(json.dumps({"local": local, "ray": on_ray}))
"""


def test_ray_equals_local(ray_cluster: RayCluster) -> None:  # noqa: F811
    """In a process of its own: Ray in the test's process would stay there (its threads, its log handlers on the
    test's captured output) for every later test of the worker."""
    # the cluster named: without an address Ray joins the cluster last started on this machine, which may be
    # another test's (killed midway on purpose) or anyone's
    env = {**without_tokens(), "RAY_AUTH_MODE": "disabled", "RAY_ADDRESS": ray_cluster.address}
    done = subprocess.run([sys.executable, "-c", COMPARE], env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    both = json.loads(done.stdout.strip().splitlines()[-1])
    assert both["ray"] == both["local"] and both["ray"]["games"] == 40
