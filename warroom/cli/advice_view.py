"""How the plan advisor's, the forecast's and the analysis's answers read at the terminal: the tables `warroom
advise`, `warroom forecast` and `warroom analyse` print, and the `advise` command at the game's prompt."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from warroom.ai.advisor import Advice, Advisor
from warroom.ai.analysis import Analysis
from warroom.ai.estimates import Estimate
from warroom.ai.forecast import Forecast
from warroom.ai.rollout import camp_names
from warroom.core.errors import shown


def pct(e: Estimate) -> str:
    """A share with its interval: '51% [46-56]'."""
    return f"{e.value:.0%} [{max(e.low, 0.0) * 100:.0f}–{min(e.high, 1.0) * 100:.0f}]"


def points(x: float) -> str:
    """A change in expected result in points, signed ('+3', '-12'; never '-0')."""
    return f"{round(x * 100):+d}"


def margin(e: Estimate, advice: Advice) -> str:
    """The expected margin with its interval: '+3.2 VP [+1.0 to +5.4]', or for a score that counts something
    rather than a difference, 'point cities German at the end 5.4 [5.1 to 5.7]'."""
    form = ".1f" if advice.margin_of else "+.1f"  # a count, or a difference
    known = math.isfinite(e.low) and math.isfinite(e.high)
    lo, hi = (format(e.low, form), format(e.high, form)) if known else ("?", "?")
    what = f"{advice.margin_of} {e.value:.1f}" if advice.margin_of else f"margin {e.value:+.1f} VP"
    return f"{what} [{lo} to {hi}]"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def side_name(st: Any, side: str) -> str:
    names: dict[str, str] = getattr(st.sc, "side_names", {}) or {}
    return names.get(side, side.replace("_", " ").title())


def advice_table(st: Any, advice: Advice) -> Group:
    """The candidates best first: win chance, expected margin, what each gives up against the best, the plan in
    words and the chance of every outcome level (the side's best first)."""
    rows: list[Any] = [Text(
        f"Advice for {side_name(st, advice.side)}, turn {advice.turn}: {plural(len(advice.candidates), 'plan')}, "
        f"{plural(advice.rollouts, 'rollout')} with {', '.join(sorted(set(advice.bots.values())))} bots (seed "
        f"{advice.seed}); stopped: {advice.stopped}.", style="bold")]
    for n, c in enumerate(advice.candidates, start=1):
        gives = "the best" if n == 1 else f"gives up {c.behind.value * 100:.1f} points [{points(c.behind.low)} to " \
                                          f"{points(c.behind.high)}] of expected result"
        dropped = " (dropped early: clearly behind)" if c.dropped else ""
        rows.append(Text.assemble(
            (f"\n{n}. ", "bold"), (c.plan.source, "bold"), f" — {gives}\n",
            f"   expected result {pct(c.score)} (a draw counts half) · wins {pct(c.win)} · "
            f"{margin(c.margin, advice)} · {plural(c.rollouts, 'rollout')}{dropped}\n",
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
    for camp, e in fc.now.wins.items():
        now.add_row(f"{names.get(camp, camp)} win" if camp else "a draw", pct(e), style="bold")
    rows.append(now)
    for need in fc.needs:
        t = Table(title=f"What result do we need? {need.question.title}")
        for name in ("results (attacker–defender VP)", "what it does", f"{names.get(first, first)} win", "draw",
                     f"{names.get(second, second)} win"):
            t.add_column(name, overflow="fold")
        for kind in sorted(need.kinds, key=lambda k: -k.chances.wins[first].value):
            t.add_row(", ".join(f"{a}–{d}" for a, d in kind.results),
                      kind.meaning or (f"{side_name(st, kind.winner)} win" if kind.winner else "?"),
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
        half = an.luck_half.get(turn, 0.0)
        graph.add_row(str(turn), f"{values[0]:.0%}", f"{values[-1]:.0%}", bars,
                      f"{points(luck)} pts" + (f" ±{half * 100:.0f}" if half else ""))
    rows: list[Any] = [f"Analysis of a game that ended in {an.outcome} ({an.rollouts} rollouts a position, seed "
                       f"{an.seed})", graph]
    for camp in an.camps:
        t = Table(title=f"{camp_name(st, camp)}: the decisions that cost the most")
        for name in ("turn", "decision", "cost"):
            t.add_column(name, overflow="fold")
        for s in an.costly[camp]:
            t.add_row(str(s.turn), s.text, f"{s.change.value * 100:.1f} pts [{points(s.change.low)} to "
                                           f"{points(s.change.high)}]")
        rows.append(t if an.costly[camp] else f"{camp_name(st, camp)}: no decision cost anything measurable.")
    dice = an.total_luck(first)
    table = sum(per.get(first, 0.0) for per in an.table.values())
    rows.append(f"The accounts, as {camp_name(st, first)} count them: expected result {an.start:.0%} at the start, "
                f"decisions {points(an.decided)} points, the dice {points(dice)}"
                + (f", results from the table {points(table)}" if an.table else "")
                + f"; the result: {an.final:.0%} ({an.outcome}). {camp_name(st, second)} count the same with the "
                  "signs turned round.")
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


PROMPT_SECONDS = 60.0
"""The CPU time `advise` at the game's prompt takes at most, unless the player gives another limit."""


def advise_at_prompt(st: Any, console: Console, args: Sequence[str] = ()) -> Any:
    """The plan advisor on the decision at hand, as `warroom advise` prints it, within `PROMPT_SECONDS` of CPU (or
    the seconds given as `args`), or a sentence saying why not; Ctrl-C stops it and play goes on. Its seed is the
    position's length, never the game's dice seed, so advice tells nothing of the dice to come."""
    try:
        seconds = float(args[0]) if args else PROMPT_SECONDS
        if len(args) > 1 or not 0.1 <= seconds <= 86_400:
            raise ValueError
    except ValueError:
        return Text(f"advise takes one limit in CPU seconds, from 0.1 to 86400, e.g. 'advise 30'; got "
                    f"{shown(' '.join(args))}")
    try:
        with bar("advising (Ctrl-C stops)", console) as progress:
            advisor = Advisor(st, dict.fromkeys(st.sc.sides, "heuristic"), len(st.log) + 1, seconds=seconds)
            advice = advisor.advise((), progress)
    except ValueError as exc:
        return Text(f"No advice: {exc}")
    except KeyboardInterrupt:
        return Text("Advice stopped; the game goes on.")
    return advice_table(st, advice)
