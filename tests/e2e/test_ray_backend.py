"""The Ray backend gives the same aggregates as local processes (runs only where Ray is installed:
`pip install 'warroom[ray]'`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.xdist_group("ray")  # one Ray test at a time: see tests/e2e/test_lab_cli.py

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


def test_ray_equals_local() -> None:
    """In a process of its own: Ray in the test's process would stay there (its threads, its log handlers on the
    test's captured output) for every later test of the worker."""
    pytest.importorskip("ray")
    # a Ray instance of the test's own: without an address Ray joins the cluster last started on this machine,
    # which may be another test's (killed midway on purpose) or anyone's
    env = {**os.environ, "RAY_ADDRESS": "local"}
    done = subprocess.run([sys.executable, "-c", COMPARE], env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    both = json.loads(done.stdout.strip().splitlines()[-1])
    assert both["ray"] == both["local"] and both["ray"]["games"] == 40
