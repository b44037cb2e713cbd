"""pytest's collection, loaded before anything imports warroom.

A module of an optional extra that is not installed is left out of the doctest run (its tests skip, saying why).

The suite runs the pure-Python engine: `WARROOM_PURE=1` is set unless the environment sets WARROOM_PURE already.
Doctests must import the sources themselves (pytest refuses a module whose file is a compiled one, and doctest
finds no examples in compiled functions), and some tests patch rule classes.
`tests/e2e/test_compiled_engine.py` checks the compiled engine against the pure one in subprocesses.
"""

import os
from importlib.util import find_spec

os.environ.setdefault("WARROOM_PURE", "1")

collect_ignore = [] if find_spec("pyspiel") else ["warroom/adapters/openspiel.py"]
