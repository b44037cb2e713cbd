"""Path-aware readers for validating data files (scenarios, saves) with precise error messages.

>>> r = Reader("caen.toml", {"turns": "five"}, [])
>>> r.integer("turns", lo=1)
0
>>> r.problems
["caen.toml: key 'turns': expected an integer, got 'five'"]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


class Reader:
    """Reads one table, collecting every problem instead of stopping at the first."""

    def __init__(self, where: str, data: Any, problems: list[str]) -> None:
        self.where = where
        self.data: dict[str, Any] = data if isinstance(data, dict) else {}
        self.problems = problems
        if not isinstance(data, dict):
            self.fail(f"expected a table, got {type(data).__name__}")

    def fail(self, message: str) -> None:
        self.problems.append(f"{self.where}: {message}")

    def has(self, key: str) -> bool:
        return key in self.data

    def _get(self, key: str, required: bool) -> Any:
        if key not in self.data:
            if required:
                self.fail(f"missing key {key!r}")
            return None
        return self.data[key]

    def text(self, key: str, default: str | None = None, choices: tuple[str, ...] = ()) -> str:
        value = self._get(key, default is None)
        if value is None:
            return default or ""
        if not isinstance(value, str):
            self.fail(f"key {key!r}: expected a string, got {value!r}")
            return default or ""
        if choices and value not in choices:
            self.fail(f"key {key!r}: expected one of {', '.join(choices)}, got {value!r}")
        return value

    def integer(self, key: str, default: int | None = None, lo: int | None = None, hi: int | None = None) -> int:
        value = self._get(key, default is None)
        if value is None:
            return default or 0
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(f"key {key!r}: expected an integer, got {value!r}")
            return default or 0
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.fail(f"key {key!r}: {value} is out of range [{lo if lo is not None else '-inf'}, "
                      f"{hi if hi is not None else 'inf'}]")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self._get(key, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.fail(f"key {key!r}: expected true or false, got {value!r}")
            return default
        return value

    def texts(self, key: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:
        value = self._get(key, False)
        if value is None:
            return default
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(f"key {key!r}: expected a list of strings, got {value!r}")
            return default
        return tuple(value)

    def integers(self, key: str, default: tuple[int, ...] = (), length: int | None = None) -> tuple[int, ...]:
        value = self._get(key, False)
        if value is None:
            return default
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                  for v in value):
            self.fail(f"key {key!r}: expected a list of integers, got {value!r}")
            return default
        if length is not None and len(value) != length:
            self.fail(f"key {key!r}: expected {length} integers, got {len(value)}")
            return default
        return tuple(value)

    def table(self, key: str, required: bool = False) -> Reader:
        value = self._get(key, required)
        return Reader(f"{self.where}: [{key}]", value if value is not None else {}, self.problems)

    def tables(self, key: str, label: str = "id") -> Iterator[Reader]:
        value = self._get(key, False)
        if value is None:
            return
        if not isinstance(value, list):
            self.fail(f"key {key!r}: expected an array of tables")
            return
        for i, item in enumerate(value):
            name = item.get(label) if isinstance(item, dict) else None
            tag = f"{key}[{i}]" + (f" ({name!r})" if isinstance(name, str) else "")
            yield Reader(f"{self.where}: {tag}", item, self.problems)

    def unknown_keys(self, allowed: set[str]) -> None:
        for key in self.data:
            if key not in allowed:
                self.fail(f"unknown key {key!r} (allowed: {', '.join(sorted(allowed))})")
