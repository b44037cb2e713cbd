"""How the plan advisor's, the forecast's and the analysis's answers read at the terminal: the tables `warroom
advise`, `warroom forecast` and `warroom analyse` print, and the `advise` command at the game's prompt."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from warroom.ai.advisor import Advice, Advisor, Estimate
from warroom.ai.analysis import Analysis
from warroom.ai.forecast import Forecast
from warroom.ai.rollout import camp_names


def pct(e: Estimate) -> str:
    """A share with its interval: '51% [46-56]'."""
    return f"{e.value:.0%} [{max(e.low, 0.0) * 100:.0f}–{min(e.high, 1.0) * 100:.0f}]"


def signed(e: Estimate, unit: str) -> str:
    lo, hi = (f"{e.low:+.1f}", f"{e.high:+.1f}") if abs(e.low) != float("inf") else ("?", "?")
    return f"{e.value:+.1f}{unit} [{lo} to {hi}]"


def side_name(st: Any, side: str) -> str:
    names: dict[str, str] = getattr(st.sc, "side_names", {}) or {}
    return names.get(side, side.replace("_", " ").title())


def advice_table(st: Any, advice: Advice) -> Group:
    """The candidates best first: win chance, expected margin, what each gives up against the best, the plan in
    words and the chance of every outcome level (the side's best first)."""
    unit = f" {advice.margin_of}" if advice.margin_of else " VP"
    rows: list[Any] = [Text(
        f"Advice for {side_name(st, advice.side)}, turn {advice.turn}: {len(advice.candidates)} plans, "
        f"{advice.rollouts:,} rollouts with {', '.join(sorted(set(advice.bots.values())))} bots (seed "
        f"{advice.seed}); stopped: {advice.stopped}.", style="bold")]
    for n, c in enumerate(advice.candidates, start=1):
        gives = "the best" if n == 1 else f"gives up {c.behind.value * 100:.1f} points [{c.behind.low * 100:+.0f} to " \
                                          f"{c.behind.high * 100:+.0f}] of expected result"
        dropped = " (dropped early: clearly behind)" if c.dropped else ""
        rows.append(Text.assemble(
            (f"\n{n}. ", "bold"), (c.plan.source, "bold"), f" — {gives}\n",
            f"   expected result {c.score.value:.0%} (a draw counts half) · wins {pct(c.win)} · margin "
            f"{signed(c.margin, unit)} · {c.rollouts} rollouts{dropped}\n",
            ("   " + "; ".join(c.plan.words) + "\n", "cyan"),
            ("   " + " · ".join(f"{label} {pct(e)}" for label, e in c.levels.items()), "dim")))
    rows.append(Text("\nTo play the best plan, enter its actions one at a time: "
                     + ", then ".join(advice.candidates[0].plan.actions)))
    return Group(*rows)


def forecast_table(st: Any, fc: Forecast) -> Group:
    """The chances of each outcome level now, and for each battle at the table, each camp's chance of winning
    after each kind of result, the first camp's best first."""
    names = camp_names(st.sc, st.params)
    first, second = fc.camps
    rows: list[Any] = [f"Forecast at turn {fc.turn} ({fc.now.rollouts:,} rollouts a line, "
                       f"{', '.join(sorted(set(fc.bots.values())))} bots, seed {fc.seed})"]
    now = Table(title="Chances now")
    now.add_column("outcome")
    now.add_column("chance")
    for label, e in fc.now.levels.items():
        now.add_row(label, pct(e))
    rows.append(now)
    for need in fc.needs:
        t = Table(title=f"What result do we need? {need.question.title}")
        for name in ("results (attacker–defender VP)", "battle won by", f"{names.get(first, first)} win", "draw",
                     f"{names.get(second, second)} win"):
            t.add_column(name, overflow="fold")
        for kind in sorted(need.kinds, key=lambda k: -k.chances.wins[first].value):
            t.add_row(", ".join(f"{a}–{d}" for a, d in kind.results),
                      side_name(st, kind.winner) if kind.winner else "?",
                      pct(kind.chances.wins[first]), pct(kind.chances.wins[""]), pct(kind.chances.wins[second]))
        rows.append(t)
    return Group(*rows)


BARS = " ▁▂▃▄▅▆▇█"


def analysis_table(st: Any, an: Analysis) -> Group:
    """The graph turn by turn, the costliest decisions and the luck."""
    first, second = an.camps
    graph = Table(title=f"{camp_name(st, first)}: expected result through the game (1 = win)")
    for name in ("turn", "start", "end", "graph", f"dice luck {camp_name(st, first)}"):
        graph.add_column(name)
    turns: dict[int, list[float]] = {}
    for p in an.points:
        turns.setdefault(p.turn, []).append(p.first.value)
    for turn, values in turns.items():
        bars = "".join(BARS[min(8, int(v * 8.999))] for v in values[:: -(-len(values) // 30)])
        luck = an.luck.get(turn, {}).get(first, 0.0)
        graph.add_row(str(turn), f"{values[0]:.0%}", f"{values[-1]:.0%}", bars, f"{luck * 100:+.0f} pts")
    rows: list[Any] = [f"Analysis of a game that ended in {an.outcome} ({an.rollouts} rollouts a position, seed "
                       f"{an.seed})", graph]
    for camp in an.camps:
        t = Table(title=f"{camp_name(st, camp)}: the decisions that cost the most")
        for name in ("turn", "decision", "cost"):
            t.add_column(name, overflow="fold")
        for s in an.costly[camp]:
            t.add_row(str(s.turn), s.text, f"{s.change.value * 100:.1f} pts [{s.change.low * 100:+.0f} to "
                                           f"{s.change.high * 100:+.0f}]")
        rows.append(t if an.costly[camp] else f"{camp_name(st, camp)}: no decision cost anything measurable.")
    share0 = an.total_luck(first)
    rows.append(f"Dice luck over the game: {camp_name(st, first)} {share0 * 100:+.0f} points, "
                f"{camp_name(st, second)} {-share0 * 100:+.0f} points of expected result; the first camp's result "
                f"was {an.final:g} against {an.points[0].first.value:.2f} expected at the start.")
    return Group(*rows)


def camp_name(st: Any, camp: str) -> str:
    return camp_names(st.sc, st.params).get(camp, camp)


@contextmanager
def bar(label: str, console: Console) -> Iterator[Callable[[int, int], None]]:
    """A progress bar for a long job, gone when it ends: yields the job's progress callback."""
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True) as progress:
        task = progress.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done, total=max(total, done))

        yield update


def advise_at_prompt(st: Any, console: Console) -> Group:
    """The plan advisor on the decision at hand, as `warroom advise` prints it. Its seed is the position's length,
    never the game's dice seed, so advice tells nothing of the dice to come."""
    with bar("advising", console) as progress:
        advice = Advisor(st, dict.fromkeys(st.sc.sides, "heuristic"), len(st.log) + 1).advise((), progress)
    return advice_table(st, advice)
