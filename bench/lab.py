"""Benchmark: the balance lab's overhead. The same games (one cell's seeds) played through `warroom simulate`'s
runner and through `lab run` (each task's games stored as Parquet, each game followed turn by turn), on one
core in one process, interleaved, median of several runs: games per CPU second for each, and the lab's overhead.

Usage: python bench/lab.py [--scenario caen] [--games 2000] [--runs 5] [--allies heuristic] [--axis random]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from warroom.lab.run import run
from warroom.lab.spec import read_spec
from warroom.lab.store import Store
from warroom.scenarios import load_game
from warroom.sim.runner import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--scenario", default="caen")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chunk", type=int, default=1000)
    parser.add_argument("--bots", default="heuristic,random", help="each side's bot, in the scenario's side order")
    args = parser.parse_args()
    sides = load_game(args.scenario).sides
    bots = dict(zip(sides, args.bots.split(","), strict=True))
    pairing = "\n".join(f'{s} = "{b}"' for s, b in bots.items())
    sim_rates, lab_rates = [], []
    with tempfile.TemporaryDirectory() as tmp:
        spec_path = Path(tmp) / "bench.toml"
        spec_path.write_text(f'[lab]\nscenarios = ["{args.scenario}"]\ngames = {args.games}\nseed = 1\n'
                             f"chunk = {args.chunk}\n\n[[lab.pairing]]\n{pairing}\n", encoding="utf-8")
        spec = read_spec(spec_path)
        cell = spec.cells[0]
        simulate(args.scenario, 20, cell.seed, bots)  # warm: the scenario loaded, the engine imported
        for r in range(args.runs):
            start = time.process_time()
            simulate(args.scenario, args.games, cell.seed, bots, chunk=args.chunk)  # the cell's games
            sim_rates.append(args.games / (time.process_time() - start))
            store = Store.open(Path(tmp) / f"run{r}", spec)
            start = time.process_time()
            run(spec, store)
            lab_rates.append(args.games / (time.process_time() - start))
    sim, lab = statistics.median(sim_rates), statistics.median(lab_rates)
    overheads = [s / lab_r - 1 for s, lab_r in zip(sim_rates, lab_rates, strict=True)]
    print(f"{args.scenario}, {args.bots.replace(',', ' v ')}: {args.games} games a run, {args.runs} runs (median)")
    print(f"  simulate: {sim:,.0f} games per CPU second")
    print(f"  lab run:  {lab:,.0f} games per CPU second")
    print(f"  the lab's overhead: {statistics.median(overheads):+.1%} (runs: "
          f"{', '.join(f'{o:+.1%}' for o in overheads)})")


if __name__ == "__main__":
    main()
