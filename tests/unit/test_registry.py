"""The registry of rule systems (`warroom.rulesets`): built-in systems, entry points of other packages, and the
lookup by id, scenario or state."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from warroom import rulesets
from warroom.core.errors import UnknownNameError
from warroom.rulesets.firestorm import FirestormScenario
from warroom.scenarios import load_game


@pytest.fixture()
def plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[EntryPoint]]:
    """Entry points of the group `warroom.systems` as if other packages offered them (module files in tmp_path)."""
    offered: list[EntryPoint] = []
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(rulesets, "entry_points", lambda group: [e for e in offered if e.group == group])
    rulesets._registry.cache_clear()
    rulesets._BY_TYPE.clear()
    yield offered
    rulesets._registry.cache_clear()
    rulesets._BY_TYPE.clear()


def offer(offered: list[EntryPoint], tmp_path: Path, name: str, value: str, source: str = "") -> None:
    if source:
        (tmp_path / f"{value.split(':')[0]}.py").write_text(source, encoding="utf-8")
    offered.append(EntryPoint(name, value, "warroom.systems"))


PLUGIN = '''
import dataclasses
from warroom.rulesets.firestorm.model import FirestormScenario
from warroom.rulesets.firestorm.system import SYSTEM as BASE

class VariantScenario(FirestormScenario):
    pass

class holder:
    SYSTEM = dataclasses.replace(BASE, id="variant", name="a Firestorm variant", scenario_type=VariantScenario)
'''


def test_the_built_in_systems_are_found_by_id_scenario_and_state() -> None:
    assert list(rulesets.systems()) == ["firestorm", "kampen", "narvik"]
    caen, kampen = load_game("caen"), load_game("kampen")
    assert rulesets.of(caen).id == "firestorm" and rulesets.of(kampen).id == "kampen"
    assert rulesets.of(rulesets.new_game(kampen)).id == "kampen"
    assert rulesets.get("kampen").name == "Kampen om Norge"
    with pytest.raises(UnknownNameError, match="unknown rule system 'chess' \\(known: firestorm, kampen, narvik\\)"):
        rulesets.get("chess")
    with pytest.raises(UnknownNameError, match="int belongs to no registered rule system"):
        rulesets.of(5)


def test_a_plugin_registers_by_entry_point_and_its_subclass_is_told_apart(plugins: list[EntryPoint],
                                                                           tmp_path: Path) -> None:
    offer(plugins, tmp_path, "variant", "toy_variant:holder.SYSTEM", PLUGIN)
    assert list(rulesets.systems()) == ["firestorm", "kampen", "narvik", "variant"] and rulesets.ignored() == ()
    import toy_variant  # type: ignore[import-not-found]

    caen = load_game("caen")
    fields = {f.name: getattr(caen, f.name) for f in dataclasses.fields(caen)}
    variant = toy_variant.VariantScenario(**fields)
    assert rulesets.of(variant).id == "variant", "the nearest ancestor's system, not the first that matches"
    assert rulesets.of(caen).id == "firestorm"
    assert isinstance(variant, FirestormScenario)


def test_a_broken_or_clashing_plugin_is_set_aside_and_the_rest_still_works(plugins: list[EntryPoint],
                                                                            tmp_path: Path) -> None:
    offer(plugins, tmp_path, "missing", "no_such_module_here:SYSTEM")
    offer(plugins, tmp_path, "notasystem", "toy_bad:SYSTEM", "SYSTEM = 42\n")
    offer(plugins, tmp_path, "clash", "toy_clash:SYSTEM",
          "from warroom.rulesets.kampen.system import SYSTEM\n")
    assert list(rulesets.systems()) == ["firestorm", "kampen", "narvik"]
    why = " | ".join(rulesets.ignored())
    assert "missing = 'no_such_module_here:SYSTEM' does not load: ModuleNotFoundError" in why
    assert "notasystem = 'toy_bad:SYSTEM' is not a RuleSystem but int" in why
    assert "clash = 'toy_clash:SYSTEM' declares the id 'kampen', which another system has" in why
    assert rulesets.of(load_game("caen")).id == "firestorm"


TERMINAL_LESS = PLUGIN + '''
from pathlib import Path
from warroom.rulesets.firestorm import load as load_firestorm
from warroom.scenarios.loader import DATA

def load(path):
    caen = load_firestorm(DATA / "caen")
    fields = {f.name: getattr(caen, f.name) for f in dataclasses.fields(caen)}
    return VariantScenario(**{**fields, "id": "toy"})

holder.SYSTEM = dataclasses.replace(holder.SYSTEM, load=load)
'''


def test_the_terminal_refuses_a_plugin_it_cannot_show_and_validate_still_reads_it(plugins: list[EntryPoint],
                                                                                   tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from warroom.cli.main import app

    offer(plugins, tmp_path, "variant", "toy_terminal:holder.SYSTEM", TERMINAL_LESS)
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "scenario.toml").write_text('[scenario]\nid = "toy"\nsystem = "variant"\n', encoding="utf-8")
    runner = CliRunner()
    for args in (["autoplay", str(folder)], ["simulate", str(folder), "--games", "1"], ["play", str(folder)]):
        r = runner.invoke(app, args)
        assert r.exit_code == 2 and "a Firestorm variant (variant), which the terminal cannot play yet" in \
            " ".join(r.output.split()), (args, r.output)
    assert runner.invoke(app, ["validate", str(folder)]).exit_code == 0
