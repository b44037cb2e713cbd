"""The terminal campaign screen: turn and phase, every area, the open battle, VP, log and choices."""

from __future__ import annotations

from collections.abc import Sequence

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

import warroom.rulesets.firestorm.caen as caen
from warroom.cli.cells import Cell, Drawn
from warroom.cli.sea_screen import on_strategic_map, strategic_panel
from warroom.core.state import REPORT, Action
from warroom.rulesets.firestorm.actions import TOKEN_LABELS
from warroom.rulesets.firestorm.describe import describe
from warroom.rulesets.firestorm.state import POOL, FirestormState

SIDE_STYLE = {"allies": "bold blue", "axis": "bold red"}


def side_text(st: FirestormState, side: str) -> Text:
    return Text(st.sc.side_names.get(side, side), style=SIDE_STYLE.get(side, "bold"))


def status_line(st: FirestormState) -> Text:
    """Turn, phase, battle count and VP on one line (repeated next to the choices)."""
    sc = st.sc
    t = sc.turn(st.turn)
    a, b = sc.sides
    line = Text()
    line.append(f"Turn {st.turn}/{len(sc.turns)}: {t.name}  ")
    line.append(f"Phase: {st.phase()}  ", style="cyan")
    if st.battles_total:
        line.append(f"Battle {st.battle_no}/{st.battles_total}  ")
    line.append_text(side_text(st, a))
    line.append(f" {st.total_vp(a)} VP  ")
    line.append_text(side_text(st, b))
    line.append(f" {st.total_vp(b)} VP")
    return line


def header(st: FirestormState) -> Panel:
    sc = st.sc
    title = Text(sc.title, style="bold")
    extras = Text()
    air = ", ".join(f"{sc.air[s].name} sorties left: {st.air_left[s]}" for s in sc.air)
    if air:
        extras.append(air + "   ")
    if caen.in_play(st):
        reserve = [st.name(u) for u in caen.troops_in_reserve(st)]
        extras.append(f"Tactical Reserve: {' + '.join(reserve) or 'empty'}   ")
    pools = ", ".join(f"{sc.side_names[s]} {sum(1 for u, w in st.loc.items() if w == POOL and sc.troops[u].side == s)}"
                      for s in sc.sides)
    extras.append(f"Reinforcement Pools: {pools}")
    return Panel(Group(title, status_line(st), extras), title="warroom", border_style="white")


def areas_table(st: FirestormState) -> Table:
    table = Table(title="Areas", expand=True, show_lines=False, pad_edge=False)
    for col in ("Area", "Name", "VP", "Terrain", "Held by", "Troops", "Supply", "Next to (~ river)"):
        table.add_column(col, overflow="fold")
    for a in st.sc.areas.values():
        holder = st.control[a.id]
        troops = ", ".join(st.name(u) for u in st.units_at(a.id))
        extras = []
        if a.supply:
            extras.append(f"source ({st.sc.side_names[a.supply]})")
        extras.extend(sorted(a.flags))
        supplied = "in supply" if st.in_supply(a.id, holder) else "OUT"
        near = " ".join(n + ("~" if frozenset((a.id, n)) in st.sc.rivers else "") for n in st.sc.adjacency[a.id])
        table.add_row(Cell(a.id), Cell(a.name + (f" [{'; '.join(extras)}]" if extras else "")), Cell(str(a.vp)),
                      Cell(a.terrain), side_text(st, holder), Cell(troops or "-"), Cell(supplied), Cell(near))
    return table


def battle_panel(st: FirestormState) -> Panel | None:
    b = st.battle
    if b is None:
        return None
    sc = st.sc
    river = sc.rivers.get(frozenset((b.frm, b.to)), "")
    where = sc.areas[b.to].terrain + (f", across the {river}" if river else "")
    lines = [Text(f"{sc.side_names[b.attacker]} attack {st.area_label(b.to)} from {st.area_label(b.frm)} ({where})")]
    for side, units, ok in ((b.attacker, b.att, b.att_supplied), (b.defender, b.dfn, b.def_supplied)):
        names = ", ".join(TOKEN_LABELS.get(u, st.name(u)) for u in units) or "(not yet committed)"
        lines.append(Text(f"  {sc.side_names[side]}: {names}; {'in supply' if ok else 'OUT OF SUPPLY'}"))
        for label, value in b.modifiers.get(side, []):
            lines.append(Text(f"      {value:+d} {label}"))
    for note in b.notes:
        lines.append(Text(f"  * {note}", style="cyan"))
    if b.winner:
        lines.append(Text(f"  Totals {b.att_total} vs {b.def_total}: {b.winner}", style="bold"))
    return Panel(Group(*lines), title=f"Battle arrow ({b.kind})", border_style="yellow")


def log_panel(st: FirestormState, since: int | None = None, context: int = 6, most: int = 60) -> Panel:
    """Everything logged since the player's last decision (plus a little context), up to `most` lines."""
    start = len(st.events) - 14 if since is None else since - context
    start = max(0, start, len(st.events) - most)
    lines = [Text(text, style="dim" if since is not None and i < since else "")
             for i, (_, text) in enumerate(st.events[start:], start=start)]
    title = "Log" + (f" (type 'log' for the {start} earlier lines)" if start else "")
    return Panel(Group(*lines) if lines else Text("-"), title=title, border_style="green")


GROUPED = 60
"""Longer option lists (the counters' strategic moves) are shown grouped by their first words, to be typed."""


def grouped(legal: Sequence[Action]) -> list[Text]:
    """'move rodney (17): A1 A2 B1 ...': the options sharing all but their last word, one line each
    (cut to the screen's width; the 'options' command prints them all)."""
    rows: dict[str, list[str]] = {}
    for a in legal:
        head, _, last = a.to_str().rpartition(" ")
        rows.setdefault(head or last, []).append(last if head else "")
    out = []
    for head, ends in rows.items():
        ends = [e for e in ends if e]
        out.append(Text(f"{head} ({len(ends)}): {' '.join(ends)}" if ends else head, no_wrap=True,
                        overflow="ellipsis"))
    return out


def choices_panel(st: FirestormState, legal: Sequence[Action]) -> Panel:
    """The legal actions by number; long lists (strategic moves) are laid out in columns, or grouped."""
    who = st.sc.side_names.get(st.current_player(), st.current_player())
    title = f"{who}: choose by number or type the action (help, quit)"
    status = status_line(st)
    if len(legal) > GROUPED:
        title = f"{who}: type the action, e.g. '{legal[0].to_str()}' ('options' lists all {len(legal)})"
        return Panel(Group(*grouped(legal)), title=title, subtitle=status, border_style="magenta")
    if len(legal) > 24:
        cells = [Text(f"{i:>3}. {a.to_str()}") for i, a in enumerate(legal, start=1)]
        return Panel(Columns(cells, column_first=True, padding=(0, 2)), title=title, subtitle=status,
                     border_style="magenta")
    rows = [Text(f"{i:>3}. {describe(st, a)}   [{a.to_str()}]") for i, a in enumerate(legal, start=1)]
    return Panel(Group(*rows), title=title, subtitle=status, border_style="magenta")






def screen(st: FirestormState, legal: Sequence[Action], since: int | None = None, viewer: str | None = None) -> Group:
    """The whole screen for a decision by `viewer` (on the Strategic Map it shows what that side may see)."""
    parts: list[RenderableType] = [header(st), strategic_panel(st, viewer) if on_strategic_map(st)
                                   else Drawn(areas_table(st))]
    bp = battle_panel(st)
    if bp is not None:
        parts.append(bp)
    parts.append(log_panel(st, since))
    if st.current_player() != REPORT:  # a tabletop result is typed, not chosen; the session prompts for it
        parts.append(choices_panel(st, legal))
    return Group(*parts)
