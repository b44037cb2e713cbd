"""Unit tests for the rules-agnostic core: dice, saves, atomic writes, schema readers and flow tables."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from warroom.core.dice import Dice, FixedDice, Roll, d3
from warroom.core.errors import IllegalActionError, SaveError
from warroom.core.flow import Flow, Step, goto
from warroom.core.log import SAVE_FORMAT, SAVE_VERSION, GameRecord, LogEntry, write_atomic
from warroom.core.schema import Reader

# ----- dice ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "sides"), [(1, 6), (2, 6), (3, 6), (2, 3), (1, 2)])
def test_outcomes_cover_every_face_combination_and_sum_to_one(count: int, sides: int) -> None:
    outcomes = Dice(count, sides).outcomes()
    assert len(outcomes) == sides**count
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    rolls = [r.values for r, _ in outcomes]
    assert len(set(rolls)) == len(rolls), "every outcome is listed once"
    assert all(len(v) == count and all(1 <= f <= sides for f in v) for v in rolls)
    assert all(p == pytest.approx(1 / sides**count) for _, p in outcomes)


def test_outcomes_of_zero_dice_is_the_empty_roll() -> None:
    assert Dice(0).outcomes() == [(Roll(()), 1.0)]


def test_outcomes_refuse_nodes_too_big_to_list() -> None:
    assert len(Dice(6).outcomes()) == 6**6
    with pytest.raises(ValueError, match="sample them"):
        Dice(7).outcomes()
    assert len(Dice(20).sample(random.Random(1)).values) == 20


def test_two_dice_outcomes_are_ordered() -> None:
    outcomes = Dice(2).outcomes()
    assert outcomes[0][0] == Roll((1, 1))
    assert outcomes[1][0] == Roll((1, 2))
    assert outcomes[-1][0] == Roll((6, 6))


def test_sample_stays_in_range_and_is_reproducible() -> None:
    dice = Dice(3)
    first = [dice.sample(random.Random(42)) for _ in range(1)]
    rng = random.Random(42)
    draws = [dice.sample(rng) for _ in range(2000)]
    assert draws[0] == first[0]
    assert all(len(r.values) == 3 and all(1 <= v <= 6 for v in r.values) for r in draws)
    faces = {v for r in draws for v in r.values}
    assert faces == {1, 2, 3, 4, 5, 6}
    rng2 = random.Random(42)
    assert [dice.sample(rng2) for _ in range(2000)] == draws
    for r in draws[:50]:
        dice.check(r)  # every sampled roll is a legal outcome


def test_sample_other_die_sizes() -> None:
    rng = random.Random(7)
    draws = [Dice(1, 3).sample(rng).values[0] for _ in range(500)]
    assert set(draws) == {1, 2, 3}


def test_fixed_dice_replays_faces_through_sample() -> None:
    fixed = FixedDice([6, 1, 3])
    assert Dice(3).sample(fixed) == Roll((6, 1, 3))  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="ran out"):
        fixed.random()


@pytest.mark.parametrize(
    "roll",
    [Roll(()), Roll((1,)), Roll((1, 2, 3)), Roll((0, 3)), Roll((3, 7)), Roll((-1, 2))],
)
def test_check_rejects_wrong_count_or_faces(roll: Roll) -> None:
    with pytest.raises(IllegalActionError, match="rolls 2 d6"):
        Dice(2).check(roll)


def test_check_accepts_every_outcome() -> None:
    dice = Dice(2)
    for roll, _ in dice.outcomes():
        dice.check(roll)
    Dice(1, 3).check(Roll((3,)))
    with pytest.raises(IllegalActionError):
        Dice(1, 3).check(Roll((4,)))


def test_illegal_action_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Dice(1).check(Roll((9,)))


@pytest.mark.parametrize(("face", "value"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_d3_mapping(face: int, value: int) -> None:
    assert d3(face) == value


@pytest.mark.parametrize("roll", [Roll(()), Roll((4,)), Roll((6, 1)), Roll((1, 2, 3, 4, 5, 6))])
def test_roll_text_round_trip(roll: Roll) -> None:
    text = roll.to_str()
    words = text.split()
    assert words[0] == "roll"
    assert Roll.parse(words[1:]) == roll


def test_roll_text_forms() -> None:
    assert Roll((4, 2)).to_str() == "roll 4 2"
    assert Roll(()).to_str() == "roll -"
    assert Roll.parse(["3"]) == Roll((3,))


def test_roll_parse_rejects_words() -> None:
    with pytest.raises(IllegalActionError, match="list of die faces"):
        Roll.parse(["three"])


# ----- saves ---------------------------------------------------------------------------------------------


def sample_record() -> GameRecord:
    return GameRecord(
        "caen",
        "1.0.0",
        {"mode": "gw", "note": "Bréville"},
        1234,
        [
            LogEntry("roll 3", "chance", 1, "d-day", True),
            LogEntry("arrow A2 B2", "allies", 1, "d-day"),
            LogEntry("commit inf_50 bde_8", "allies", 1, "battle", False, True),
        ],
    )


def sample_dict() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(sample_record().to_json())
    return data


def test_record_json_round_trip() -> None:
    rec = sample_record()
    text = rec.to_json()
    back = GameRecord.from_json(text)
    assert back == rec
    assert back.log[0].automatic is True
    assert back.log[2].redacted is True
    assert back.params["note"] == "Bréville"
    data = json.loads(text)
    assert data["format"] == SAVE_FORMAT
    assert data["format_version"] == SAVE_VERSION


def test_record_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    rec = sample_record()
    rec.save(path)
    assert GameRecord.load(path) == rec
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_log_entry_defaults_when_flags_missing() -> None:
    data = sample_dict()
    del data["log"][1]["automatic"]
    del data["log"][1]["redacted"]
    back = GameRecord.from_json(json.dumps(data))
    assert back.log[1] == LogEntry("arrow A2 B2", "allies", 1, "d-day", False, False)


def test_invalid_json_is_a_save_error() -> None:
    with pytest.raises(SaveError, match="invalid JSON"):
        GameRecord.from_json("{not json")


def test_truncated_save_is_a_save_error() -> None:
    text = sample_record().to_json()
    for cut in (1, len(text) // 3, len(text) // 2, len(text) - 2):
        with pytest.raises(SaveError, match="invalid JSON"):
            GameRecord.from_json(text[:cut])


def test_empty_text_is_a_save_error() -> None:
    with pytest.raises(SaveError, match="invalid JSON"):
        GameRecord.from_json("")


@pytest.mark.parametrize("fmt", [None, "other-save", 1])
def test_wrong_format_field_is_a_save_error(fmt: Any) -> None:
    data = sample_dict()
    if fmt is None:
        del data["format"]
    else:
        data["format"] = fmt
    with pytest.raises(SaveError, match="'format' field is missing or wrong"):
        GameRecord.from_json(json.dumps(data))


@pytest.mark.parametrize("top", [[1, 2], "warroom-save", 3, None])
def test_non_object_json_is_a_save_error(top: Any) -> None:
    with pytest.raises(SaveError, match="not a warroom save"):
        GameRecord.from_json(json.dumps(top))


@pytest.mark.parametrize("version", [None, 2, "1"])
def test_wrong_format_version_is_a_save_error(version: Any) -> None:
    data = sample_dict()
    if version is None:
        del data["format_version"]
    else:
        data["format_version"] = version
    with pytest.raises(SaveError, match="unsupported save format version"):
        GameRecord.from_json(json.dumps(data))


@pytest.mark.parametrize("key", ["scenario", "scenario_version", "params", "seed", "log"])
def test_missing_field_is_a_save_error(key: str) -> None:
    data = sample_dict()
    del data[key]
    with pytest.raises(SaveError, match=f"save field '{key}' is missing"):
        GameRecord.from_json(json.dumps(data))


@pytest.mark.parametrize(
    ("key", "value"),
    [("scenario", 5), ("scenario_version", 1), ("params", ["gw"]), ("seed", "7"), ("seed", 7.5),
     ("log", {"0": "roll 3"})],
)
def test_wrong_field_type_is_a_save_error(key: str, value: Any) -> None:
    data = sample_dict()
    data[key] = value
    with pytest.raises(SaveError, match=f"save field '{key}' is missing or not a"):
        GameRecord.from_json(json.dumps(data))


def test_boolean_seed_is_a_save_error() -> None:
    data = sample_dict()
    data["seed"] = True
    with pytest.raises(SaveError, match="seed"):
        GameRecord.from_json(json.dumps(data))


def test_log_entry_not_an_object_is_a_save_error() -> None:
    data = sample_dict()
    data["log"][1] = "arrow A2 B2"
    with pytest.raises(SaveError, match="log entry 1 is not an object"):
        GameRecord.from_json(json.dumps(data))


@pytest.mark.parametrize("key", ["action", "side", "turn", "phase"])
def test_log_entry_missing_key_is_a_save_error(key: str) -> None:
    data = sample_dict()
    del data["log"][2][key]
    with pytest.raises(SaveError, match=f"log entry 2 has no '{key}'"):
        GameRecord.from_json(json.dumps(data))


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [("action", 3, "must be strings"), ("side", None, "must be strings"), ("phase", ["x"], "must be strings"),
     ("turn", "1", "turn must be an integer"), ("turn", True, "turn must be an integer"),
     ("turn", 1.5, "turn must be an integer")],
)
def test_log_entry_wrong_type_is_a_save_error(key: str, value: Any, message: str) -> None:
    data = sample_dict()
    data["log"][0][key] = value
    with pytest.raises(SaveError, match=f"log entry 0: .*{message}"):
        GameRecord.from_json(json.dumps(data))


def test_log_entry_flag_of_wrong_type_is_a_save_error() -> None:
    data = sample_dict()
    data["log"][1]["automatic"] = "false"
    with pytest.raises(SaveError, match="automatic"):
        GameRecord.from_json(json.dumps(data))


def test_load_missing_file_is_a_save_error(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="no save file"):
        GameRecord.load(tmp_path / "absent.json")


def test_load_non_utf8_file_is_a_save_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"format": "\xff\xfe"}')
    with pytest.raises(SaveError, match="cannot read save file"):
        GameRecord.load(path)


def test_load_truncated_file_is_a_save_error(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    text = sample_record().to_json()
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(SaveError, match="invalid JSON"):
        GameRecord.load(path)


# ----- atomic writes -------------------------------------------------------------------------------------


def test_write_atomic_writes_and_replaces(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    write_atomic(path, "first")
    assert path.read_text(encoding="utf-8") == "first"
    write_atomic(path, "second ünïcode")
    assert path.read_text(encoding="utf-8") == "second ünïcode"
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_write_atomic_failing_rename_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "save.json"
    sample_record().save(path)
    before = path.read_text(encoding="utf-8")

    def boom(src: Any, dst: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        GameRecord("lorraine", "2", {}, 1).save(path)
    assert path.read_text(encoding="utf-8") == before
    assert GameRecord.load(path) == sample_record()
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"], "the temporary file is cleaned up"


def test_write_atomic_failing_write_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "save.json"
    write_atomic(path, "old contents")
    real_fdopen = os.fdopen

    class Broken:
        def __init__(self, fh: Any) -> None:
            self.fh = fh

        def __enter__(self) -> Broken:
            return self

        def __exit__(self, *exc: object) -> None:
            self.fh.close()

        def write(self, text: str) -> int:
            self.fh.write(text[:3])
            raise OSError("write failed")

    def fdopen(fd: int, *args: Any, **kwargs: Any) -> Broken:
        return Broken(real_fdopen(fd, *args, **kwargs))

    monkeypatch.setattr(os, "fdopen", fdopen)
    with pytest.raises(OSError, match="write failed"):
        write_atomic(path, "new contents that never land")
    assert path.read_text(encoding="utf-8") == "old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_write_atomic_failure_on_a_new_path_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(src: Any, dst: Any) -> None:
        raise OSError("no")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_atomic(tmp_path / "new.json", "text")
    assert list(tmp_path.iterdir()) == []


# ----- schema readers -------------------------------------------------------------------------------------


def test_reader_reads_good_values_without_problems() -> None:
    problems: list[str] = []
    r = Reader("f.toml", {"n": 3, "s": "plain", "b": True, "l": ["a", "b"], "i": [1, 2, 3]}, problems)
    assert r.integer("n", lo=1, hi=5) == 3
    assert r.text("s", choices=("plain", "city")) == "plain"
    assert r.flag("b", False) is True
    assert r.texts("l") == ("a", "b")
    assert r.integers("i", length=3) == (1, 2, 3)
    assert r.has("n") and not r.has("zzz")
    assert r.integer("missing", 9) == 9
    assert r.text("missing", "dflt") == "dflt"
    assert r.flag("missing", True) is True
    assert r.texts("missing", ("x",)) == ("x",)
    assert problems == []


def test_reader_collects_every_problem() -> None:
    problems: list[str] = []
    r = Reader(
        "caen.toml",
        {"turns": "five", "vp": 2000, "name": 3, "terrain": "swamp", "flag": "yes", "tags": "a",
         "dice": [1, 2], "bools": [True, 1], "extra": 1},
        problems,
    )
    assert r.integer("turns", lo=1) == 0
    assert r.integer("vp", lo=0, hi=1000) == 2000
    assert r.text("name") == ""
    assert r.text("terrain", choices=("plain", "city")) == "swamp"
    assert r.flag("flag", False) is False
    assert r.texts("tags") == ()
    assert r.integers("dice", length=6) == ()
    assert r.integers("bools") == ()
    assert r.integer("absent") == 0
    assert r.text("absent_s") == ""
    r.unknown_keys({"turns", "vp", "name", "terrain", "flag", "tags", "dice", "bools"})
    assert problems == [
        "caen.toml: key 'turns': expected an integer, got 'five'",
        "caen.toml: key 'vp': 2000 is out of range [0, 1000]",
        "caen.toml: key 'name': expected a string, got 3",
        "caen.toml: key 'terrain': expected one of plain, city, got 'swamp'",
        "caen.toml: key 'flag': expected true or false, got 'yes'",
        "caen.toml: key 'tags': expected a list of strings, got 'a'",
        "caen.toml: key 'dice': expected 6 integers, got 2",
        "caen.toml: key 'bools': expected a list of integers, got [True, 1]",
        "caen.toml: missing key 'absent'",
        "caen.toml: missing key 'absent_s'",
        "caen.toml: unknown key 'extra' (allowed: bools, dice, flag, name, tags, terrain, turns, vp)",
    ]


def test_reader_rejects_booleans_as_integers() -> None:
    problems: list[str] = []
    r = Reader("x", {"n": True}, problems)
    assert r.integer("n", 4) == 4
    assert problems == ["x: key 'n': expected an integer, got True"]


def test_reader_open_ranges_in_messages() -> None:
    problems: list[str] = []
    r = Reader("x", {"a": -1, "b": 99}, problems)
    r.integer("a", lo=0)
    r.integer("b", hi=10)
    assert problems == [
        "x: key 'a': -1 is out of range [0, inf]",
        "x: key 'b': 99 is out of range [-inf, 10]",
    ]


def test_reader_nested_tables_name_their_path() -> None:
    problems: list[str] = []
    root = Reader("s.toml", {"rules": {"stacking": "x"}, "area": [{"id": "A1", "vp": "y"}, 5, {"vp": 1}]},
                  problems)
    assert root.table("rules").integer("stacking", 0) == 0
    areas = list(root.tables("area"))
    assert len(areas) == 3
    areas[0].integer("vp")
    areas[2].text("id")
    root.table("missing_table", required=True)
    assert problems == [
        "s.toml: [rules]: key 'stacking': expected an integer, got 'x'",
        "s.toml: area[1]: expected a table, got int",
        "s.toml: area[0] ('A1'): key 'vp': expected an integer, got 'y'",
        "s.toml: area[2]: missing key 'id'",
        "s.toml: missing key 'missing_table'",
    ]


def test_reader_of_a_non_table() -> None:
    problems: list[str] = []
    r = Reader("f", ["a"], problems)
    assert r.data == {}
    assert problems == ["f: expected a table, got list"]
    problems2: list[str] = []
    r2 = Reader("g", {"area": "A1"}, problems2)
    assert list(r2.tables("area")) == []
    assert problems2 == ["g: key 'area': expected an array of tables"]


# ----- flow tables ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Press:
    n: int

    def to_str(self) -> str:
        return f"press {self.n}"


@dataclass
class Toy:
    step: str = ""
    terminal: bool = False
    count: int = 0
    goal: int = 2
    trace: list[str] = field(default_factory=list)

    def is_terminal(self) -> bool:
        return self.terminal


def toy_flow() -> Flow[Toy]:
    """A 2-step table: 'setup' is automatic and hands over to 'press', where a player presses a
    button until `goal` presses, and then goes back to 'setup'; setup ends the game after 2 rounds."""

    def begin_setup(s: Toy) -> None:
        s.trace.append("setup")
        if s.trace.count("setup") > 2:
            s.terminal = True

    def begin_press(s: Toy) -> None:
        s.trace.append("press")
        s.count = 0

    def legal(s: Toy) -> Sequence[Any]:
        return [Press(1), Press(2)]

    def apply(s: Toy, a: Any) -> None:
        assert isinstance(a, Press)
        s.count += a.n

    return Flow([
        Step("setup", "plan", on_begin=begin_setup, next=goto("press")),
        Step("press", "play", actor=lambda s: "p1", legal=legal, apply=apply, on_begin=begin_press,
             end_if=lambda s: s.count >= s.goal, next=goto("setup")),
    ])


def test_flow_enter_runs_automatic_steps_until_a_decision() -> None:
    flow = toy_flow()
    s = Toy()
    flow.enter(s, "setup")
    assert s.step == "press"
    assert s.trace == ["setup", "press"]
    assert flow.phase(s) == "play"
    assert flow.steps["press"].actor(s) == "p1"
    assert flow.steps["setup"].actor(s) == ""


def test_flow_apply_and_settle() -> None:
    flow = toy_flow()
    s = Toy()
    flow.enter(s, "setup")
    flow.apply(s, Press(1))
    assert s.step == "press" and s.count == 1, "end_if not met: the step continues"
    flow.apply(s, Press(1))
    assert s.trace == ["setup", "press", "setup", "press"]
    assert s.step == "press" and s.count == 0
    flow.apply(s, Press(2))
    assert s.terminal
    assert s.trace[-1] == "setup", "settle stops once the state is terminal"


def test_flow_settle_leaves_an_unfinished_step_alone() -> None:
    flow = toy_flow()
    s = Toy(step="press", count=0)
    flow.settle(s)
    assert s.step == "press" and s.trace == []
    s.count = 5
    flow.settle(s)
    assert s.trace == ["setup", "press"]


def test_flow_step_legality() -> None:
    flow = toy_flow()
    s = Toy()
    flow.enter(s, "setup")
    step = flow.steps["press"]
    assert step.is_legal(s, Press(1))
    assert not step.is_legal(s, Press(3))
    why_not = Step[Toy]("why_not", "x", problem=lambda st, a: "" if a == Press(9) else "only 9 is pressed")
    assert why_not.is_legal(s, Press(9)) and not why_not.is_legal(s, Press(1))


def test_flow_automatic_step_rejects_actions() -> None:
    flow = toy_flow()
    s = Toy(step="setup")
    with pytest.raises(IllegalActionError, match="no action is taken in this step"):
        flow.apply(s, Press(1))


def test_flow_rejects_duplicate_steps() -> None:
    with pytest.raises(ValueError, match="duplicate step 'a'"):
        Flow([Step[Toy]("a", "p"), Step[Toy]("a", "q")])


def test_flow_that_never_settles_raises() -> None:
    loop = Flow([Step[Toy]("a", "p", next=goto("b")), Step[Toy]("b", "p", next=goto("a"))])
    with pytest.raises(RuntimeError, match="did not settle"):
        loop.enter(Toy(), "a")


def test_flow_with_no_next_step_stops() -> None:
    flow = Flow([Step[Toy]("only", "p")])
    s = Toy()
    flow.enter(s, "only")
    assert s.step == "only"


def test_a_shuffle_roll_reaches_every_order_once() -> None:
    from warroom.core.dice import MixedDice, shuffled

    spec = MixedDice.shuffle(4)
    orders = [tuple(shuffled(list("abcd"), roll)) for roll, _ in spec.outcomes()]
    assert len(orders) == len(set(orders)) == 24
    assert abs(sum(p for _, p in spec.outcomes()) - 1) < 1e-9
    import random

    import pytest

    from warroom.core.dice import Roll
    from warroom.core.errors import IllegalActionError

    spec.check(spec.sample(random.Random(1)))
    with pytest.raises(IllegalActionError, match="faces"):
        spec.check(Roll((4, 4, 1)))
