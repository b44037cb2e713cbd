"""pytest's collection, loaded before anything imports warroom.

A module of an optional extra that is not installed is left out of the doctest run (its tests skip, saying why).

The suite runs the pure-Python engine: `WARROOM_PURE=1` is set unless the environment sets WARROOM_PURE already.
Doctests must import the sources themselves (pytest refuses a module whose file is a compiled one, and doctest
finds no examples in compiled functions), and some tests patch rule classes.
`tests/e2e/test_compiled_engine.py` checks the compiled engine against the pure one in subprocesses.
"""

import os
from importlib.util import find_spec

import pytest

os.environ.setdefault("WARROOM_PURE", "1")

collect_ignore = [] if find_spec("pyspiel") else ["warroom/adapters/openspiel.py"]


def pytest_configure(config: pytest.Config) -> None:
    """A parallel run (`make test`) keeps the tests of one `xdist_group` on one worker: the Ray tests start and kill
    clusters, and must not overlap. pytest 9.2 silently undoes pytest-xdist's grouping (its issue 1386), so such a
    run is refused there rather than let them mix; pyproject.toml pins a pytest below 9.2."""
    if config.getoption("dist", "no") == "loadgroup" and pytest.version_tuple[:2] >= (9, 2):
        raise pytest.UsageError(f"pytest {pytest.__version__} ignores pytest-xdist's --dist loadgroup (pytest-xdist "
                                "issue 1386): install the pytest pyproject.toml pins (pip install -e '.[dev]')")
