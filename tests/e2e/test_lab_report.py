"""The balance lab's report in Chromium: one file that asks the network for nothing, with a plot of each kind the
sweep calls for (win rates against each swept value, the heat map of two, margins and lengths, the skill matrix
and the skill trace of a searching bot's budgets) and a row for every cell; a screenshot of it goes to the test's
folder."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import Browser
from test_browser import browser  # noqa: F401  (the fixture, shared)

from warroom.lab.report import build
from warroom.lab.run import run
from warroom.lab.spec import read_spec
from warroom.lab.store import Store

GAMES = 2
"""Games in each of the 16 cells. Every plot and row of the report is drawn from any number of games, and the sweep
is the test's cost: the searching bot's pairings played most of it (on the reference engine a Lorraine game takes
about 0.3 s at mcts:1 and 1.2 s at mcts:4). It used to be 6 games a cell, with budgets of 2 and 4: a third of the
games at half the budgets, still one budget the double of the other for the skill trace, is about a sixth of the
CPU."""

SPEC = f"""
[lab]
name = "Lorraine: stacking, advance cap and search budgets"
scenarios = ["lorraine"]
games = {GAMES}
seed = 2
chunk = 10

[[lab.pairing]]
allies = "heuristic"
axis = "random"

[[lab.pairing]]
allies = "random"
axis = "random"

[[lab.pairing]]
allies = "mcts:1"
axis = "random"

[[lab.pairing]]
allies = "mcts:2"
axis = "random"

[lab.sweep]
"scenario.toml:rules.stacking" = [0, 2]
"scenario.toml:rules.advance_cap" = [3, 4]
"""


def test_the_report_shows_each_plot_the_sweep_calls_for_and_every_cell(browser: Browser,  # noqa: F811
                                                                       tmp_path: Path) -> None:
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(SPEC, encoding="utf-8")
    spec = read_spec(spec_path)
    run(spec, Store.open(tmp_path / "out", spec), jobs=2)
    got = build(tmp_path / "out")
    assert len(got["cells"]) == 16 and all(c["metrics"]["games"] == GAMES for c in got["cells"])
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto((tmp_path / "out" / "report.html").as_uri())
    assert asked == [(tmp_path / "out" / "report.html").as_uri()]  # readable offline: nothing else fetched
    captions = page.eval_on_selector_all("figcaption", "fs => fs.map(f => f.textContent)")
    assert [c.split(" against ")[0] for c in captions[:2]] == ["allies' win rate"] * 2
    assert any(c.startswith("allies' win rate over scenario.toml:rules.stacking and") for c in captions)
    assert any(c.startswith("the allies VP less axis VP") for c in captions)
    assert any(c.startswith("the game length in turns") for c in captions)
    assert any(c.startswith("skill matrix") for c in captions)
    assert any(c.startswith("skill trace") for c in captions)
    sizes = page.eval_on_selector_all("figure svg", "ss => ss.map(s => s.getBoundingClientRect().width)")
    assert len(sizes) == len(captions) == 7 and all(w > 150 for w in sizes)
    assert page.locator("table").last.locator("tbody tr").count() == 16  # every cell
    assert page.locator("table").first.locator("tbody tr").count() == 4  # history: each pairing, as published
    lines = page.eval_on_selector_all("figure:first-child svg g[id^='line2d']", "ls => ls.length")
    assert lines >= 4  # a line for each pairing
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
