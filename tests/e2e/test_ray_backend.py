"""The Ray backend gives the same aggregates as local processes (runs only where Ray is installed:
`pip install 'warroom[ray]'`)."""

from __future__ import annotations

import pytest

from warroom.sim import simulate


def test_ray_equals_local() -> None:
    pytest.importorskip("ray")
    bots = {"allies": "random", "axis": "random"}
    local = simulate("lorraine", 40, 3, bots, chunk=10).report(("allies", "axis"))
    on_ray = simulate("lorraine", 40, 3, bots, backend="ray", chunk=10).report(("allies", "axis"))
    assert on_ray == local and on_ray["games"] == 40
