"""The log is the source of truth: saves hold the scenario, parameters, seed and action log.

>>> rec = GameRecord("caen", "1", {"mode": "gw"}, 7, [LogEntry("roll 3", "chance", 1, "battle", True)])
>>> GameRecord.from_json(rec.to_json()) == rec
True
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from warroom.core.errors import SaveError

SAVE_FORMAT = "warroom-save"
SAVE_VERSION = 1


class LogEntry(NamedTuple):
    """One applied action: its text, who took it, when, and whether it was automatic (dice).

    A named tuple rather than a dataclass: one is built for every action, so it must be cheap.
    """

    action: str
    side: str
    turn: int
    phase: str
    automatic: bool = False
    redacted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "side": self.side,
            "turn": self.turn,
            "phase": self.phase,
            "automatic": self.automatic,
            "redacted": self.redacted,
        }

    @classmethod
    def from_dict(cls, data: Any, index: int) -> LogEntry:
        where = f"log entry {index}"
        if not isinstance(data, dict):
            raise SaveError(f"{where} is not an object")
        try:
            action, side, turn, phase = data["action"], data["side"], data["turn"], data["phase"]
        except KeyError as exc:
            raise SaveError(f"{where} has no {exc.args[0]!r}") from exc
        if not isinstance(action, str) or not isinstance(side, str) or not isinstance(phase, str):
            raise SaveError(f"{where}: action, side and phase must be strings")
        if not isinstance(turn, int) or isinstance(turn, bool):
            raise SaveError(f"{where}: turn must be an integer")
        flags = []
        for key in ("automatic", "redacted"):
            value = data.get(key, False)
            if not isinstance(value, bool):
                raise SaveError(f"{where}: {key!r} must be true or false, got {value!r}")
            flags.append(value)
        return cls(action, side, turn, phase, flags[0], flags[1])


class Secret(NamedTuple):
    """What the rules mark secret in one log entry: the sides who may read it whole (none: nobody, e.g. a
    shuffle's roll, which is a deck's new order) and what everyone else reads in its place."""

    readers: tuple[str, ...]
    shown: str


def marked(entries: list[LogEntry], since: int, marks: dict[int, Secret], may_read: Callable[[Secret], bool]
           ) -> list[LogEntry]:
    """`entries[since:]` with every entry marked secret that the reader may not read replaced by its public form."""
    out = entries[since:]
    for i, mark in marks.items():
        if i >= since and i < len(entries) and not may_read(mark):
            e = out[i - since]  # built directly: `_replace` costs several times as much, once per entry per reading
            out[i - since] = LogEntry(mark.shown, e.side, e.turn, e.phase, e.automatic, True)
    return out


ENTRY_JSON = ('  {{\n   "action": {},\n   "side": {},\n   "turn": {},\n   "phase": {},\n   "automatic": {},\n'
              '   "redacted": {}\n  }}')
"""A log entry in a save, as `json.dumps(indent=1)` writes it two levels deep (inside the save's "log" list)."""


def entry_json(entry: LogEntry) -> str:
    """`entry` as it stands in a save's text: the fields of the types a log holds are written directly (strings
    by `json`'s own C escaping, the one `json.dumps` uses), anything else by `json.dumps` itself."""
    action, side, turn, phase, automatic, redacted = entry
    if type(action) is str and type(side) is str and type(turn) is int and type(phase) is str \
            and type(automatic) is bool and type(redacted) is bool:
        quote = json.encoder.encode_basestring
        return ENTRY_JSON.format(quote(action), quote(side), turn, quote(phase), "true" if automatic else "false",
                                 "true" if redacted else "false")
    # split at json's own line breaks only: `splitlines` would also split at the U+2028, U+2029 and U+0085 that
    # `ensure_ascii=False` leaves inside a string, and the save would no longer read as JSON
    return "\n".join("  " + line for line in json.dumps(entry.to_dict(), indent=1, ensure_ascii=False).split("\n"))


SEALED = 0
"""The seed of a save that leaves its seed out (`warroom play --sealed`, the club server's export): every roll
so far is in its log, so it still replays exactly, but the dice to come cannot be foretold from it."""


@dataclass(slots=True)
class GameRecord:
    """Everything needed to rebuild a game exactly."""

    scenario: str
    scenario_version: str
    params: dict[str, Any]
    seed: int
    log: list[LogEntry] = field(default_factory=list)

    def head(self) -> dict[str, Any]:
        """Everything in the save but its log."""
        return {
            "format": SAVE_FORMAT,
            "format_version": SAVE_VERSION,
            "scenario": self.scenario,
            "scenario_version": self.scenario_version,
            "params": self.params,
            "seed": self.seed,
        }

    def to_data(self) -> dict[str, Any]:
        """The save as JSON data (what `to_json` writes)."""
        return {**self.head(), "log": [e.to_dict() for e in self.log]}

    def to_json(self) -> str:
        r"""The save's text: `to_data` as `json.dumps(indent=1, ensure_ascii=False)` writes it, but its log entry by
        entry (`entry_json`).

        `json.dumps` indents with its pure-Python encoder, and the log is nearly all of a save: the terminal saves
        a person's game after every action, so in a long game much of the time between two prompts went to encoding
        the same entries again (a hot-seat game of Norway spent 4 of its 30 seconds of CPU there).

        >>> rec = GameRecord("caen", "1.1.0", {"mode": "gw", "players": {"allies": "human"}}, 7, [
        ...     LogEntry("roll 3", "chance", 1, "battle", True), LogEntry('say "é" \\ \n \u2028', "allies", 2, "x"),
        ...     LogEntry("commit -", "axis", 3, "battle", False, True)])
        >>> rec.to_json() == json.dumps(rec.to_data(), indent=1, ensure_ascii=False)
        True
        >>> rec.log = []
        >>> rec.to_json() == json.dumps(rec.to_data(), indent=1, ensure_ascii=False)
        True
        """
        text = json.dumps(self.head(), indent=1, ensure_ascii=False)  # '{\n "format": ...\n}'
        if not self.log:
            return text[:-2] + ',\n "log": []\n}'
        entries = ",\n".join(map(entry_json, self.log))
        return f'{text[:-2]},\n "log": [\n{entries}\n ]\n}}'

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        return cls.from_data(parse_json(text))

    @classmethod
    def from_data(cls, data: Any) -> GameRecord:
        """A save from its parsed JSON; `SaveError` naming the field that is missing or wrong."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError("not a warroom save: the 'format' field is missing or wrong")
        if data.get("format_version") != SAVE_VERSION:
            raise SaveError(f"unsupported save format version {data.get('format_version')!r}")
        for key, typ in (("scenario", str), ("scenario_version", str), ("params", dict), ("seed", int),
                         ("log", list)):
            if not isinstance(data.get(key), typ) or isinstance(data.get(key), bool):
                raise SaveError(f"save field {key!r} is missing or not a {typ.__name__}")
        entries = [LogEntry.from_dict(e, i) for i, e in enumerate(data["log"])]
        return cls(data["scenario"], data["scenario_version"], data["params"], data["seed"], entries)

    def save(self, path: Path) -> None:
        """Write atomically: a failure never leaves a half-written or clobbered save."""
        write_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: Path) -> GameRecord:
        try:
            if path.is_char_device() or path.is_block_device():  # /dev/zero would never end
                raise SaveError(f"cannot read save file {path}: it is a device, not a file")
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise SaveError(f"no save file at {path}") from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise SaveError(f"cannot read save file {path}: {exc}") from exc
        return cls.from_json(text)


def parse_json(text: str) -> Any:
    """JSON text as Python data; anything unreadable, however pathological (nesting deeper than the stack,
    a number of thousands of digits), is a `SaveError`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"not a warroom save: invalid JSON ({exc.msg}, line {exc.lineno})") from exc
    except (RecursionError, ValueError) as exc:
        raise SaveError(f"not a warroom save: unreadable JSON ({type(exc).__name__})") from exc


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and an atomic rename."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, mode)  # a save keeps its permissions (mkstemp makes files private)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
