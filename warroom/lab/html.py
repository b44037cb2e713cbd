"""A sweep's report as one HTML file a designer reads at a glance, offline: the plots inline as SVG (drawn with
matplotlib, text kept as text), then the table of every cell's metrics.

The plots, each where the sweep has what it needs:
- the first camp's win rate, with its 95 % band, against each swept value (a line for each pairing and each
  combination of the other swept values, or pooled over them when there would be too many lines);
- a heat map of that win rate over the first two swept paths;
- the margin (score difference) and the game length, as histograms of each cell (the first few cells);
- a skill matrix: the first camp's win rate for each bot of one side against each bot of the other;
- a skill trace: the win rate as one side's search budget doubles, the other side's bot fixed.
"""

from __future__ import annotations

import hashlib
import html
import io
import math
import re
from collections.abc import Callable, Sequence
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.core import stats
from warroom.core.stats import wilson

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MOST_LINES = 8
MOST_HISTOGRAMS = 6
CSS = """
body{font-family:system-ui,sans-serif;margin:1.5rem auto;max-width:1100px;color:#222;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ccc}
.plots{display:flex;flex-wrap:wrap;gap:1rem}.plots figure{margin:0;flex:1 1 480px;max-width:540px}
figure svg{width:100%;height:auto}figcaption{font-size:.9rem;color:#555}
table{border-collapse:collapse;font-size:.85rem;margin-top:.5rem}th,td{border:1px solid #ddd;padding:.25rem .4rem;
text-align:right}th{background:#f3f3f3}td.l,th.l{text-align:left}.note{font-size:.9rem;color:#555}
.wide{overflow-x:auto}
"""


def figure(width: float, height: float) -> Figure:
    """A new figure of this size in inches. matplotlib is imported only as a plot is drawn: it is most of the time
    this module would take to import, and the commands that only label paths (`lab tune`) or print the metrics of a
    report already drawn (`lab report --json`) draw nothing."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def drawn_from(text: str) -> str:
    """A digest of what a report's page is drawn from: the report (its JSON text), the code that draws it (this
    module and the intervals' `warroom.core.stats`) and matplotlib's version. The page carries it (`page`), so that
    a page already drawn from the same is not drawn again (`lab.report.build`)."""
    digest = hashlib.sha256()
    for source in (__file__, stats.__file__):
        digest.update(Path(source).read_bytes())
    digest.update(metadata.version("matplotlib").encode())
    digest.update(text.encode("utf-8"))
    return digest.hexdigest()


STAMP = "<meta name='warroom-report' content='{}'>"
"""How a page says what it was drawn from (`drawn_from`)."""


def svg(fig: Figure) -> str:
    """A figure as inline SVG (text kept as text; it shrinks with the page)."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "font.family": "sans-serif"}):
        fig.savefig(buf, format="svg", bbox_inches="tight")
    text = buf.getvalue()
    text = re.sub(r"<metadata>.*?</metadata>", "", text[text.index("<svg"):], flags=re.S)
    # no fixed size: the figure fills its box, but never beyond the size it was drawn at
    return re.sub(r'<svg([^>]*?) width="([^"]*)" height="[^"]*"', r'<svg\1 style="max-width:\2"', text, count=1)


def label(path: str, among: Sequence[str] = ()) -> str:
    """A swept path's short name: its last key ('scenario.toml:rules.stacking' -> 'stacking'), or as many of
    its last keys as tell it apart from the other paths `among` ('area[id=A2].supply', 'area[id=A3].supply')."""
    def keys(p: str) -> list[str]:
        return p.rpartition(":")[2].split(".")
    mine = keys(path)
    for n in range(1, len(mine) + 1):
        short = ".".join(mine[-n:])
        if not any(".".join(keys(o)[-n:]) == short for o in among if o != path):
            return short
    return path


def bots_of(cell: dict[str, Any]) -> str:
    """A cell's bots, each with its side: 'allies heuristic, axis random'."""
    return ", ".join(f"{side} {kind}" for side, kind in cell["bots"].items())


def whose(camp: str) -> str:
    return f"{camp}'" if camp.endswith("s") else f"{camp}'s"


def win(cells: Sequence[dict[str, Any]], camp: str) -> tuple[float, float, float, int]:
    """The camp's win rate over these cells' games together, with its interval, and the games."""
    n = sum(c["metrics"]["games"] for c in cells)
    k = sum(c["metrics"]["wins"][camp]["count"] for c in cells)
    lo, hi = wilson(k, n)
    return (k / n if n else math.nan), lo, hi, n


def grouped(cells: Sequence[dict[str, Any]], key: Callable[[dict[str, Any]], Any]) -> dict[Any, list[dict[str, Any]]]:
    out: dict[Any, list[dict[str, Any]]] = {}
    for c in cells:
        out.setdefault(key(c), []).append(c)
    return out


def changed(path: str) -> Callable[[dict[str, Any]], Any]:
    """A cell's value of a swept path."""
    return lambda c: c["changes"][path]


def bot(side: str) -> Callable[[dict[str, Any]], str]:
    """A cell's bot for a side."""
    return lambda c: str(c["bots"][side])


def sortable(v: Any) -> tuple[int, Any]:
    return (0, v) if isinstance(v, int | float) and not isinstance(v, bool) else (1, str(v))


def rate_plots(report: dict[str, Any]) -> list[tuple[str, str]]:
    """The first camp's win rate against each swept path's values."""
    camp = report["camps"][0]
    several = len({c["scenario"] for c in report["cells"]}) > 1
    out = []
    for path in report["swept"]:
        others = [p for p in report["swept"] if p != path]

        def line_of(c: dict[str, Any], pooled: bool, others: list[str] = others) -> str:
            rest = "" if pooled else ", ".join(f"{label(p, report['swept'])} {c['changes'][p]}" for p in others)
            return ", ".join(x for x in (c["scenario"] if several else "", bots_of(c), rest) if x)

        pooled = len(grouped(report["cells"], partial(line_of, pooled=False))) > MOST_LINES
        fig = figure(6.4, 3.8)
        ax = fig.add_subplot()
        for name, cells in grouped(report["cells"], partial(line_of, pooled=pooled)).items():
            by_value = grouped(cells, changed(path))
            xs = sorted(by_value, key=sortable)
            stats = [win(by_value[x], camp) for x in xs]
            pos = list(range(len(xs))) if any(isinstance(x, str | bool) for x in xs) else xs
            (shown,) = ax.plot(pos, [s[0] for s in stats], marker="o", label=name)
            ax.fill_between(pos, [s[1] for s in stats], [s[2] for s in stats], alpha=0.2, color=shown.get_color())
            if pos is not xs or all(isinstance(x, int) for x in xs):  # ticks at the values swept, as given
                ax.set_xticks(pos, [str(x) for x in xs])
        ax.axhline(0.5, color="#999", lw=0.8, ls="--")
        ax.set_ylim(0, 1)
        ax.set_xlabel(label(path, report["swept"]))
        ax.set_ylabel(f"{camp} win rate")
        ax.legend(fontsize="small", title="pooled over " + ", ".join(label(o, report["swept"]) for o in others)
                  if pooled else None)
        ax.grid(alpha=0.3)
        out.append((svg(fig), f"{whose(camp)} win rate against {path}, with 95 % bands (Wilson)"))
    return out


def heat_map(report: dict[str, Any]) -> list[tuple[str, str]]:
    """The first camp's win rate over the first two swept paths (the first scenario and pairing)."""
    if len(report["swept"]) < 2:
        return []
    camp = report["camps"][0]
    px, py = report["swept"][:2]
    first = report["cells"][0]
    cells = [c for c in report["cells"] if c["scenario"] == first["scenario"] and c["bots"] == first["bots"]]
    xs = sorted({c["changes"][px] for c in cells}, key=sortable)
    ys = sorted({c["changes"][py] for c in cells}, key=sortable)
    grid = [[win([c for c in cells if c["changes"][px] == x and c["changes"][py] == y], camp)[0] for x in xs]
            for y in ys]
    fig = figure(6.4, 4.2)
    ax = fig.add_subplot()
    image = ax.imshow(grid, origin="lower", cmap="RdBu", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(len(xs)), [str(x) for x in xs])
    ax.set_yticks(range(len(ys)), [str(y) for y in ys])
    ax.set_xlabel(label(px, report["swept"]))
    ax.set_ylabel(label(py, report["swept"]))
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if not math.isnan(v):
                ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize="small",
                        color="white" if abs(v - 0.5) > 0.3 else "black")
    fig.colorbar(image, ax=ax, label=f"{camp} win rate")
    return [(svg(fig), f"{whose(camp)} win rate over {px} and {py} ({first['scenario']}, {bots_of(first)}; other "
                       "swept values pooled)")]


def histograms(report: dict[str, Any]) -> list[tuple[str, str]]:
    cells = report["cells"][:MOST_HISTOGRAMS]
    out = []
    for key, what in (("margin", report.get("score", "score difference at the end")), ("length",
                                                                                       "game length in turns")):
        fig = figure(6.4, 3.6)
        ax = fig.add_subplot()
        for c in cells:
            hist = {int(k): v for k, v in c["metrics"][key]["histogram"].items()}
            if not hist:
                continue
            total = sum(hist.values())
            xs = sorted(hist)
            bins = max(1, min(20, len(xs)))
            ax.hist(xs, bins=bins, weights=[hist[x] / total for x in xs], histtype="step", lw=1.5,
                    label=", ".join(x for x in (bots_of(c), *(f"{label(p, report['swept'])} {c['changes'][p]}"
                                                                for p in report["swept"])) if x))
        ax.set_xlabel(what)
        ax.set_ylabel("share of games")
        ax.grid(alpha=0.3)
        if cells:
            ax.legend(fontsize="small")
        more = f" (the first {MOST_HISTOGRAMS} cells)" if len(report["cells"]) > MOST_HISTOGRAMS else ""
        out.append((svg(fig), f"the {what}, cell by cell{more}"))
    return out


def skill(report: dict[str, Any]) -> list[tuple[str, str]]:
    """The skill matrix (each bot of one side against each of the other) and the skill trace (the win rate as a
    side's search budget doubles), where the pairings vary."""
    camp = report["camps"][0]
    sides = list(report["cells"][0]["bots"])
    if len(sides) < 2:
        return []
    a, b = sides[0], sides[-1]
    by_pair = grouped(report["cells"], lambda c: (c["bots"][a], c["bots"][b]))
    rows = sorted({p[0] for p in by_pair})
    cols = sorted({p[1] for p in by_pair})
    out = []
    if len(rows) > 1 or len(cols) > 1:
        grid = [[win(by_pair.get((r, c), []), camp)[0] for c in cols] for r in rows]
        fig = figure(1.6 + 1.2 * len(cols), 1.4 + 0.8 * len(rows))
        ax = fig.add_subplot()
        ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1, aspect="auto")
        ax.set_xticks(range(len(cols)), cols, rotation=20)
        ax.set_yticks(range(len(rows)), rows)
        ax.set_xlabel(f"{whose(b)} bot")
        ax.set_ylabel(f"{whose(a)} bot")
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                ax.text(j, i, "–" if math.isnan(v) else f"{v:.0%}", ha="center", va="center", fontsize="small")
        out.append((svg(fig), f"skill matrix: {whose(camp)} win rate for each pairing (swept values pooled)"))
    trace = []
    for side, other in ((a, b), (b, a)):
        fixed = grouped([c for c in report["cells"] if c["bots"][side].startswith("mcts:")
                         and budget(c["bots"][side]) is not None], bot(other))
        for against, cells in fixed.items():
            by_budget = grouped(cells, budget_of(side))
            if len(by_budget) > 1:
                trace.append((side, against, sorted(by_budget.items())))
    if trace:
        fig = figure(6.4, 3.6)
        ax = fig.add_subplot()
        for side, against, points in trace:
            stats = [win(cells, camp) for _, cells in points]
            xs = [n for n, _ in points]
            (shown,) = ax.plot(xs, [s[0] for s in stats], marker="o", label=f"{side} searching, {against} opposite")
            ax.fill_between(xs, [s[1] for s in stats], [s[2] for s in stats], alpha=0.2, color=shown.get_color())
        ax.set_xscale("log", base=2)
        ax.set_ylim(0, 1)
        ax.set_xlabel("search budget (rollouts)")
        ax.set_ylabel(f"{camp} win rate")
        ax.legend(fontsize="small")
        ax.grid(alpha=0.3)
        out.append((svg(fig), f"skill trace: {whose(camp)} win rate as a side's search budget doubles"))
    return out


def budget_of(side: str) -> Callable[[dict[str, Any]], int | None]:
    """A cell's search budget (rollouts) for a side."""
    return lambda c: budget(c["bots"][side])


def budget(kind: str) -> int | None:
    spend = kind.partition(":")[2].split("/")[0]
    return int(spend) if spend.isdigit() else None


def calibration(report: dict[str, Any]) -> str:
    """How often each pairing reproduces the real campaign's result, in the cells that play a scenario as it is
    published (every swept value its own), where the scenario states it."""
    rows = [c for c in report["cells"] if "historical" in c["metrics"] and c.get("published")
            and c["metrics"]["games"]]
    if not rows:
        return ""
    body = "".join(
        f"<tr><td class='l'>{html.escape(c['scenario'])}</td><td class='l'>{html.escape(bots_of(c))}</td>"
        f"<td class='l'>{html.escape(c['metrics']['historical']['outcome'])}</td>"
        f"<td>{c['metrics']['historical']['rate']:.1%}<br><small>{c['metrics']['historical']['ci95'][0]:.1%}–"
        f"{c['metrics']['historical']['ci95'][1]:.1%}</small></td><td>{c['metrics']['games']:,}</td></tr>"
        for c in rows)
    return ("<h2>Calibration against history</h2><p class='note'>How often each pairing reproduces the real "
            "campaign's result (the scenario states it as data), with the scenario as published.</p><table><thead>"
            "<tr><th class='l'>scenario</th><th class='l'>bots</th><th class='l'>historical result</th>"
            f"<th>reproduced</th><th>games</th></tr></thead><tbody>{body}</tbody></table>")


def games_of(report: dict[str, Any], m: dict[str, Any]) -> str:
    """A cell's games, with the games it should have while the sweep is not finished ('450/1,000')."""
    due = report.get("games_a_cell")
    return f"{m['games']:,}" + (f"/{due:,}" if isinstance(due, int) and m["games"] < due else "")


def table(report: dict[str, Any]) -> str:
    camps = report["camps"]
    heads = ["scenario", "bots", *(label(p, report["swept"]) for p in report["swept"]), "games", f"{camps[0]} win",
             f"{camps[1]} win", "draw", "balance", "margin", "turns", "decided turn", "decided share", "lead changes",
             "drama", "behind"]

    def pct(r: dict[str, Any]) -> str:
        if r["rate"] is None:
            return "–"
        return f"{r['rate']:.1%}<br><small>{r['ci95'][0]:.1%}–{r['ci95'][1]:.1%}</small>"

    def num(m: dict[str, Any]) -> str:
        if m["mean"] is None:
            return "–"
        return f"{m['mean']:.3g}<br><small>{m['ci95'][0]:.3g}–{m['ci95'][1]:.3g}</small>"

    rows = []
    for c in report["cells"]:
        m = c["metrics"]
        bal = m["balance"]
        cells = [html.escape(c["scenario"]), html.escape(bots_of(c)),
                 *(html.escape(str(c["changes"].get(p, ""))) for p in report["swept"]), games_of(report, m),
                 pct(m["wins"][camps[0]]), pct(m["wins"][camps[1]]), pct(m["wins"]["draw"]),
                 "–" if bal["value"] is None else f"{bal['value']:.2f}<br><small>{bal['ci95'][0]:.2f}–"
                                                  f"{bal['ci95'][1]:.2f}</small>",
                 num(m["margin"]), num(m["length"]), num(m["decided_turn"]), num(m["decided_share"]),
                 num(m["lead_changes"]), num(m["drama"]), pct(m["drama"]["behind"])]
        rows.append("<tr>" + "".join(f'<td class="l">{x}</td>' if i < 2 else f"<td>{x}</td>"
                                     for i, x in enumerate(cells)) + "</tr>")
    head = "".join(f'<th class="l">{h}</th>' if i < 2 else f"<th>{html.escape(h)}</th>" for i, h in enumerate(heads))
    return f"<div class='wide'><table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"


def page(report: dict[str, Any], drawn: str = "") -> str:
    """The whole report page; `drawn`: the digest of what it is drawn from (`drawn_from`), said in its head."""
    camps = report["camps"]
    games = sum(c["metrics"]["games"] for c in report["cells"])
    expected = (report.get("games_a_cell") or 0) * len(report["cells"])
    sections = [("Win rates against the swept values", rate_plots(report) + heat_map(report)),
                ("Margins and lengths", histograms(report)), ("Bot skill", skill(report))]
    body = [f"<h1>{html.escape(str(report['name']))}</h1>",
            f"<p>{len(report['cells'])} cells, {games:,} games"
            + (f" of {expected:,} (the sweep is not finished)" if expected and games < expected else "")
            + f"; seed {report['seed']}. Swept: "
            + (", ".join(html.escape(p) for p in report["swept"]) or "nothing") + ".</p>"]
    for title, plots in sections:
        if plots:
            body.append(f"<h2>{title}</h2><div class='plots'>"
                        + "".join(f"<figure>{s}<figcaption>{html.escape(cap)}</figcaption></figure>"
                                  for s, cap in plots) + "</div>")
    body.append(calibration(report))
    body += ["<h2>Every cell</h2>",
             f"<p class='note'>Rates with their 95 % Wilson interval; means with a 95 % normal interval. Balance: 1 "
             f"less the gap between {html.escape(whose(camps[0]))} and {html.escape(whose(camps[1]))} win rates. "
             "Decided: the turn from which the eventual winner led at every turn's end (and as a share of the game). "
             "Drama: the most the winner was behind at a turn's end (Firestorm: VP; otherwise outcome levels), and "
             "how often it was behind at all. Every game is in games.parquet beside this file.</p>",
             table(report)]
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(str(report['name']))}"
            f"</title><meta name='viewport' content='width=device-width,initial-scale=1'>"
            f"{STAMP.format(drawn) if drawn else ''}<style>{CSS}</style>"
            f"</head><body>{''.join(body)}</body></html>")
