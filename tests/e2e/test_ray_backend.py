"""The Ray backend gives the same aggregates as local processes (runs only where Ray is installed:
`pip install 'warroom[ray]'`)."""

from __future__ import annotations

import pytest

from warroom.sim import simulate

pytestmark = pytest.mark.xdist_group("ray")  # one Ray test at a time: see tests/e2e/test_lab_cli.py


def test_ray_equals_local(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ray")
    # a Ray instance of the test's own: without an address Ray joins the cluster last started on this machine,
    # which may be another test's (killed midway on purpose) or anyone's
    monkeypatch.setenv("RAY_ADDRESS", "local")
    bots = {"allies": "random", "axis": "random"}
    local = simulate("lorraine", 40, 3, bots, chunk=10).report(("allies", "axis"))
    try:
        on_ray = simulate("lorraine", 40, 3, bots, backend="ray", chunk=10).report(("allies", "axis"))
    finally:
        import ray

        ray.shutdown()
    assert on_ray == local and on_ray["games"] == 40
