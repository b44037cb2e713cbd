"""pytest's collection, loaded before anything imports warroom.

A module of an optional extra that is not installed is left out of the doctest run (its tests skip, saying why).

The suite runs the pure-Python engine: `WARROOM_PURE=1` is set unless the environment sets WARROOM_PURE already.
Doctests must import the sources themselves (pytest refuses a module whose file is a compiled one, and doctest
finds no examples in compiled functions), and some tests patch rule classes.
`tests/e2e/test_compiled_engine.py` checks the compiled engine against the pure one in subprocesses.
"""

import os
import signal
import warnings
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path

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


def sigint_state() -> str:
    """Whether this process ignores or blocks SIGINT, as its children inherit it ('' where /proc cannot tell)."""
    try:
        lines = Path("/proc/self/status").read_text(encoding="ascii").splitlines()
    except OSError:
        return ""
    status = dict(line.split(":\t", 1) for line in lines if line.startswith(("SigIgn", "SigBlk")))
    return " ".join(f"{key}={'yes' if int(value, 16) & (1 << (signal.SIGINT - 1)) else 'no'}"
                    for key, value in sorted(status.items()))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test that leaves SIGINT ignored or blocked in the worker is named (its children would never hear a Ctrl-C:
    tests/e2e/test_lab_cli.py saw this in a whole-suite run), and the worker is put back."""
    before = sigint_state()
    yield
    after = sigint_state()
    if after != before:
        warnings.warn(f"{item.nodeid} changed this process's SIGINT ({before} -> {after}); put back", stacklevel=1)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        if "SigIgn=yes" in after and "SigIgn=yes" not in before:
            signal.signal(signal.SIGINT, signal.default_int_handler)
