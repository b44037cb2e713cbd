"""Benchmark: does the searching bot beat the heuristic? The strength bar of the search, seat by seat.

For every scenario and seat: the seat's win rate when a searching bot (`--bot`, e.g. `mcts:1s/g`) holds it against
the heuristic in every other seat, beside the heuristic's own win rate in that seat (heuristic against heuristic),
each with its 95% Wilson interval. A seat passes when the search's rate is at least `--margin` (20 points) above the
heuristic's and the two intervals do not overlap. A win is an outcome with the seat's side as its winner (a draw is
no win); sides that win together (Kampen om Norge's Norway and Allies) each count the win. The bar asks for at least
`--min-games` (200) in the seat; with fewer, a seat that clears the margin says so and how many games it had.

The full bar (1 s a decision, 200 games, every seat) is about 55 CPU-hours for the two Firestorm land campaigns
alone: a Caen game asks a side about 120 searched decisions. Run it on a Ray cluster (`--ray ADDRESS`) or many local
processes (`--jobs`), overnight. Each finished cell is appended to `--out` (JSON lines), and a run started again
with the same `--out` skips the cells already there, so an interrupted run resumes.

Usage: python bench/strength.py [--bot mcts:1s/g] [--games 200] [--baseline-games 2000] [--scenario caen ...]
                                [--jobs N | --ray ADDRESS] [--seed 11] [--out strength.jsonl]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from warroom import rulesets
from warroom.ai.bots import bot_problem
from warroom.core.stats import wilson
from warroom.scenarios import load_game
from warroom.sim.runner import simulate

SCENARIOS: dict[str, tuple[str, dict[str, Any]]] = {
    "caen": ("caen", {}), "lorraine": ("lorraine", {}), "norway": ("norway", {}),
    "kampen": ("kampen", {}), "kampen-advanced": ("kampen", {"advanced": True})}


def seats_of(scenario: str, params: dict[str, Any]) -> dict[str, list[str]]:
    """Each seat and the winners that count as its wins: the camps of the sides it holds (`rulesets.camps`)."""
    sc = load_game(scenario)
    system = rulesets.of(sc)
    merged = {**system.sim_params, **params}
    seats = system.seats(sc, merged)
    out: dict[str, list[str]] = {}
    for side, camp in rulesets.camps(sc, merged).items():
        if camp not in out.setdefault(seats[side], []):
            out[seats[side]].append(camp)
    return out


def cell(scenario: str, params: dict[str, Any], seats: dict[str, list[str]], holder: str, bot: str, games: int,
         seed: int, jobs: int, backend: str, progress: Progress) -> list[dict[str, Any]]:
    """Play `games` with `bot` in seat `holder` and the heuristic elsewhere (`holder` '': the heuristic everywhere,
    the baseline); a row per seat that the games measure: the holder's, or every seat for the baseline. `seats`:
    `seats_of` the scenario."""
    bots = {s: (bot if s == holder else "heuristic") for s in seats}
    name = f"{scenario}{' advanced' if params else ''} {holder or 'every seat'}: {bot}"
    task = progress.add_task(name, total=games)
    summary = simulate(scenario, games, seed, bots, jobs=jobs, backend=backend, chunk=25 if not holder else 1,
                       params={**rulesets.of(load_game(scenario)).sim_params, **params},
                       progress=lambda n: progress.advance(task, n))
    progress.remove_task(task)
    rows = []
    for seat, camps in seats.items():
        if holder and seat != holder:
            continue
        wins = sum(summary.wins.get(camp, 0) for camp in camps)
        rows.append({"scenario": scenario, "params": params, "seat": seat, "bot": bot, "games": summary.games,
                     "seed": seed, "wins": wins, "rate": wins / summary.games,
                     "ci95": list(wilson(wins, summary.games))})
    return rows


def key(row: dict[str, Any]) -> str:
    return _cell_key(row["scenario"], row["params"], row["seat"], row["bot"], row["games"], row["seed"])


def _cell_key(scenario: str, params: dict[str, Any], seat: str, bot: str, games: int, seed: int) -> str:
    return json.dumps([scenario, params, seat, bot, games, seed])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="mcts:1s/g", help="the searching bot (any --allies-bot of simulate)")
    parser.add_argument("--games", type=int, default=200, help="games per seat with the searching bot")
    parser.add_argument("--baseline-games", type=int, default=2000, help="heuristic-against-heuristic games")
    parser.add_argument("--scenario", action="append", choices=sorted(SCENARIOS), help="default: every one")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=1, help="local worker processes")
    parser.add_argument("--ray", metavar="ADDRESS", help="run on the Ray cluster at ADDRESS ('auto' finds one)")
    parser.add_argument("--margin", type=float, default=0.20, help="points the search must gain over the heuristic")
    parser.add_argument("--min-games", type=int, default=200, help="games the bar asks for in each seat")
    parser.add_argument("--out", type=Path, default=Path("strength.jsonl"), help="finished cells (JSON lines)")
    args = parser.parse_args()
    problem = bot_problem(args.bot)
    if problem:
        parser.error(problem)  # named before hours of play
    if args.games < 1 or args.baseline_games < 1 or args.jobs < 1:
        parser.error("--games, --baseline-games and --jobs are counts of at least 1")
    backend = "local"
    if args.ray:
        import ray

        ray.init(address=args.ray, ignore_reinit_error=True, log_to_driver=False)
        backend = "ray"
    done: dict[str, dict[str, Any]] = {}
    if args.out.exists():
        for number, line in enumerate(args.out.read_text().splitlines(), 1):
            if line.strip():
                try:
                    row = json.loads(line)
                    done[key(row)] = row
                except (ValueError, TypeError, KeyError) as exc:  # the file is left as it is
                    parser.error(f"{args.out} line {number} is not a cell this script wrote ({exc!r}); "
                                 "mend or remove it, or name another --out")
    rows: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns) as progress:
        for name in args.scenario or list(SCENARIOS):
            scenario, params = SCENARIOS[name]
            seats = seats_of(scenario, params)
            for holder, bot, games in [("", "heuristic", args.baseline_games),
                                       *((seat, args.bot, args.games) for seat in seats)]:
                wanted = [_cell_key(scenario, params, seat, bot, games, args.seed)
                          for seat in seats if not holder or seat == holder]
                if all(k in done for k in wanted):
                    continue
                for row in cell(scenario, params, seats, holder, bot, games, args.seed, args.jobs, backend,
                                progress):
                    done[key(row)] = row
                    with args.out.open("a") as f:
                        f.write(json.dumps(row) + "\n")
            for seat in seats:
                rows.append((name, seat, done[_cell_key(scenario, params, seat, "heuristic", args.baseline_games,
                                                        args.seed)],
                             done[_cell_key(scenario, params, seat, args.bot, args.games, args.seed)]))
    print(f"{'scenario':<16} {'seat':<8} {'heuristic':>22} {args.bot:>22} {'gain':>6}  bar")
    for name, seat, base, search in rows:
        gain = search["rate"] - base["rate"]
        met = gain >= args.margin and search["ci95"][0] > base["ci95"][1]
        verdict = "not passed" if not met else "passed" if search["games"] >= args.min_games else \
            f"margin met, {search['games']} of {args.min_games} games"
        print(f"{name:<16} {seat:<8} {_rate(base):>22} {_rate(search):>22} {100 * gain:>+5.1f}  {verdict}")


def _rate(row: dict[str, Any]) -> str:
    lo, hi = row["ci95"]
    return f"{100 * row['rate']:.1f}% [{100 * lo:.0f}-{100 * hi:.0f}] n={row['games']}"


if __name__ == "__main__":
    main()
