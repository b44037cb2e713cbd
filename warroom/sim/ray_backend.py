"""Run simulation chunks on a Ray cluster (optional dependency: `pip install warroom[ray]`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def run_ray(scenario: str, seed: int, parts: list[tuple[int, int]], bots: dict[str, str],
            fn: Callable[..., Any], params: dict[str, Any] | None = None) -> Iterator[Any]:
    """Submit every chunk as a Ray task and yield partial summaries as they finish; `params` are the game
    parameters of every game (None: the default)."""
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the optional extra
        raise RuntimeError("the Ray backend needs Ray: pip install 'warroom[ray]'") from exc
    if not ray.is_initialized():
        ray.init(ignore_reinit_error=True, log_to_driver=False)
    remote = ray.remote(fn)
    pending = [remote.remote(scenario, seed, start, stop, bots, params) for start, stop in parts]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        yield ray.get(done[0])
