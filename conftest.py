"""pytest's collection: a module of an optional extra that is not installed is left out of the doctest run (its
tests skip, saying why)."""

from importlib.util import find_spec

collect_ignore = [] if find_spec("pyspiel") else ["warroom/adapters/openspiel.py"]
