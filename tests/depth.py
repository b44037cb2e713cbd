"""How far the suite's sampling tests go: their games, examples and runs are multiplied by `WARROOM_TEST_DEPTH`
(a whole number, 1 by default). `make test` runs depth 1, sized to keep the whole suite well under ten minutes on two
cores; a deeper run (`WARROOM_TEST_DEPTH=10 make test`, or `make fuzz` for the conformance harness) looks further
for rare faults. A test whose bound depends on its sample size derives the bound from the scaled size."""

from __future__ import annotations

import os

DEPTH_ENV = "WARROOM_TEST_DEPTH"


def _depth() -> int:
    text = os.environ.get(DEPTH_ENV, "1")
    try:
        depth = int(text)
    except ValueError:
        raise SystemExit(f"{DEPTH_ENV} must be a whole number from 1 up, not {text!r}") from None
    if depth < 1:
        raise SystemExit(f"{DEPTH_ENV} must be a whole number from 1 up, not {text!r}")
    return depth


DEPTH = _depth()


def deep(n: int) -> int:
    """`n` (the count at depth 1) at the depth this run asks for."""
    return n * DEPTH
