"""The terminal session's save: every human input is kept, and bots and dice do not rewrite the save after
each of their actions (which made a long all-bot game quadratic)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from rich.console import Console

from warroom.cli.kampen_screen import screen
from warroom.cli.session import KAMPEN_HELP, SAVE_EVERY, Session
from warroom.core.log import GameRecord, LogEntry
from warroom.rulesets.kampen import new_game


def session(tmp_path: Path, players: dict[str, str], answers: list[str]) -> tuple[Session, Path]:
    save = tmp_path / "game.json"
    st = new_game(None, {"advanced": True})
    console = Console(file=io.StringIO(), width=120)
    feed = iter(answers)
    s = Session(st, 3, players, "random", save, console, lambda _prompt: next(feed, "quit"), render=screen,
                help_text=KAMPEN_HELP)
    return s, save


def test_the_save_holds_everything_before_a_human_decision_and_every_human_action(tmp_path: Path) -> None:
    s, save = session(tmp_path, {"germany": "bot", "norway": "human", "allies": "bot"}, ["1", "quit"])
    assert s.run() is False
    saved = GameRecord.load(save)
    assert [e.action for e in saved.log] == [e.action for e in s.st.log], "nothing played is missing"
    assert any(e.side == "norway" for e in saved.log), "the human's choice is in the save"


def test_an_all_bot_game_saves_at_the_end_and_every_hundred_actions(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    s, save = session(tmp_path, {"germany": "bot", "norway": "bot", "allies": "bot"}, [])
    writes = []
    real = GameRecord.save

    def counting(record: GameRecord, path: Path) -> None:
        writes.append(len(record.log))
        real(record, path)

    monkeypatch.setattr(GameRecord, "save", counting)
    assert s.run() is True
    assert GameRecord.load(save).log == s.st.log
    assert len(writes) <= len(s.st.log) // SAVE_EVERY + 2


@settings(max_examples=200, deadline=None)
@given(entries=hst.lists(hst.builds(LogEntry, hst.text(), hst.text(), hst.integers(-(2 ** 70), 2 ** 70), hst.text(),
                                    hst.booleans(), hst.booleans()), max_size=4),
       params=hst.dictionaries(hst.text(max_size=5), hst.integers() | hst.text(max_size=5), max_size=3))
def test_a_save_is_written_as_json_dumps_writes_it_whatever_its_text(entries: list[LogEntry],
                                                                   params: dict[str, object]) -> None:
    """The save's text is written entry by entry (`log.entry_json`), byte for byte what `json.dumps` would write:
    any text (quotes, backslashes, control and non-ASCII characters), any whole number."""
    rec = GameRecord("caen", "1.1.0", params, 7, entries)
    assert rec.to_json() == json.dumps(rec.to_data(), indent=1, ensure_ascii=False)
    assert GameRecord.from_json(rec.to_json()).log == entries


class Said(str):
    """Text of a type of its own: a log entry holding one is written by `json.dumps` itself, not field by field."""


@pytest.mark.parametrize("text", ["a\u2028b", "a\u2029b", "a\x85b", 'quote " and \\ \n'])
def test_an_entry_of_other_types_is_written_as_json_dumps_writes_it_too(text: str) -> None:
    entries = [LogEntry(Said(text), "allies", 2, "battle"), LogEntry(text, Said("axis"), 3, "battle"),
               LogEntry("plain", "chance", 1, "battle", True)]
    rec = GameRecord("caen", "1.1.0", {}, 7, entries)
    assert rec.to_json() == json.dumps(rec.to_data(), indent=1, ensure_ascii=False)
    assert [e.action for e in GameRecord.from_json(rec.to_json()).log] == [text, text, "plain"]
