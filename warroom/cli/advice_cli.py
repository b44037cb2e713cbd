"""`warroom advise`, `warroom forecast` and `warroom analyse` on a save (their tables: `cli.advice_view`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from warroom.ai.advisor import Advisor
from warroom.ai.analysis import analyse
from warroom.ai.bots import bot_problem
from warroom.ai.forecast import forecast
from warroom.ai.rollout import EVERYTHING
from warroom.cli.advice_view import advice_table, analysis_table, bar, camp_name, forecast_table
from warroom.cli.common import err, fail, out
from warroom.core.errors import SaveError
from warroom.rulesets import new_game

ROLLOUT_BOT_HELP = ("the bot that plays every side in the rollouts: heuristic (the default), random, or mcts with a "
                    "budget (slow)")


def rollout_bots(st: Any, bot: str) -> dict[str, str]:
    problem = bot_problem(bot)
    if problem:
        raise fail(f"--bot: {problem}")
    return dict.fromkeys(st.sc.sides, bot)


def show(as_json: bool, data: dict[str, Any], table: Callable[[], Any]) -> None:
    """An answer as JSON on standard output (`--json`), or as its table."""
    if as_json:
        typer.echo(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        out.print(table())


def register(app: typer.Typer, load: Callable[[Path, str], tuple[Any, Any]]) -> None:
    """Add the three commands to `app`; `load` reads and replays a save (exiting with its problem)."""

    @app.command()
    def advise(
        file: Annotated[Path, typer.Argument(help="a save (warroom play --save, or a club export)")],
        plan: Annotated[list[str] | None, typer.Option(
            help="also judge this plan: actions separated by ';' (repeat for several)")] = None,
        bot: Annotated[str, typer.Option(help=ROLLOUT_BOT_HELP)] = "heuristic",
        seed: Annotated[int, typer.Option(help="seed of the rollouts: the same seed gives the same advice")] = 1,
        candidates: Annotated[int, typer.Option(min=1, max=40, help="how many plans to draw up")] = 8,
        target: Annotated[float, typer.Option(
            min=0.5, max=25.0, help="stop when each win chance is known within ± this many points")] = 5.0,
        most: Annotated[int, typer.Option(min=1, max=1_000_000, help="the most rollouts for one plan")] = 4000,
        seconds: Annotated[float | None, typer.Option(
            min=0.1, help="stop after this much CPU time (the advice then depends on the machine)")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="print the advice as JSON")] = False,
    ) -> None:
        """Rank the plans for the side to act in a saved campaign: each plan's chances of every outcome level and
        its expected margin, with 95% intervals, and what it gives up against the best."""
        _record, st = load(file, "advise on")
        bots = rollout_bots(st, bot)
        try:
            advisor = Advisor(st, bots, seed, candidates=candidates, target=target / 100, most=most,
                              seconds=seconds)
            with bar("advising", err) as progress:
                advice = advisor.advise(plan or (), progress)
        except ValueError as exc:
            raise fail(f"cannot advise on {file}: {exc}") from exc
        show(as_json, advice.to_json(), lambda: advice_table(st, advice))

    @app.command(name="forecast")
    def forecast_cmd(
        file: Annotated[Path, typer.Argument(help="a save (warroom play --save, or a club export)")],
        rollouts: Annotated[int, typer.Option(min=1, max=1_000_000, help="rollouts for each line")] = 400,
        bot: Annotated[str, typer.Option(help=ROLLOUT_BOT_HELP)] = "heuristic",
        seed: Annotated[int, typer.Option(help="seed of the rollouts")] = 1,
        as_json: Annotated[bool, typer.Option("--json", help="print the forecast as JSON")] = False,
    ) -> None:
        """Each outcome level's chance from a saved position, as everyone may see it; for a battle waiting for
        its result from the table, the chances after each kind of result ('what result do we need?')."""
        _record, st = load(file, "forecast")
        bots = rollout_bots(st, bot)
        if st.is_terminal():
            raise fail(f"cannot forecast {file}: the campaign is over ({st.outcome_text()})")
        with bar("forecasting", err) as progress:
            fc = forecast(st, bots, seed, rollouts, progress)
        show(as_json, fc.to_json(), lambda: forecast_table(st, fc))

    @app.command(name="analyse")
    def analyse_cmd(
        file: Annotated[Path, typer.Argument(help="the save of a finished campaign")],
        rollouts: Annotated[int, typer.Option(min=2, max=100_000, help="rollouts at each position")] = 48,
        bot: Annotated[str, typer.Option(help=ROLLOUT_BOT_HELP)] = "heuristic",
        seed: Annotated[int, typer.Option(help="seed of the rollouts")] = 1,
        as_json: Annotated[bool, typer.Option("--json", help="print the analysis as JSON")] = False,
        svg: Annotated[Path | None, typer.Option(help="also draw the win-probability graph into this SVG file")] = None,
    ) -> None:
        """After the game: the win-probability graph over the whole campaign, each side's costliest decisions,
        and how much the dice decided, turn by turn."""
        record, st = load(file, "analyse")
        bots = rollout_bots(st, bot)
        if not st.is_terminal():
            raise fail(f"cannot analyse {file}: the campaign is not over yet (turn {st.turn}); ask "
                       f"'warroom forecast {file}' for its chances now")
        drawing = None
        if svg is not None:  # claimed before the work, so that no analysis is lost to a file it cannot write
            if svg.is_dir():
                raise fail(f"--svg {svg}: that is a folder; name the SVG file to write")
            if not svg.parent.is_dir():
                raise fail(f"--svg {svg}: there is no folder {svg.parent}")
            try:
                drawing = svg.open("x", encoding="utf-8")  # never over an existing file
            except FileExistsError as exc:
                raise fail(f"--svg {svg}: the file exists; it is not overwritten (choose another name)") from exc
            except OSError as exc:
                raise fail(f"--svg {svg}: cannot write it ({exc.strerror or exc})") from exc
        sc = st.sc
        params = dict(record.params)
        try:
            with bar("analysing", err) as progress:
                an = analyse(record, lambda: new_game(sc, dict(params)), EVERYTHING, bots, seed, rollouts,
                             progress=progress)
        except BaseException as exc:  # a failed or interrupted analysis leaves no empty SVG behind
            if drawing is not None:
                drawing.close()
                svg.unlink(missing_ok=True)  # type: ignore[union-attr]
            if isinstance(exc, (ValueError, SaveError)):
                raise fail(f"cannot analyse {file}: {exc}") from exc
            raise
        problem = ""
        if drawing is not None:
            from warroom.server.svg import win_graph

            try:
                with drawing:
                    drawing.write(win_graph(an, lambda camp: camp_name(st, camp)))
            except OSError as exc:
                svg.unlink(missing_ok=True)  # type: ignore[union-attr]
                problem = f"--svg {svg}: cannot write it ({exc.strerror or exc})"
        show(as_json, an.to_json(), lambda: analysis_table(st, an))  # the analysis is not lost with the file
        if problem:
            raise fail(problem)
