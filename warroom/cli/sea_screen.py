"""The Strategic Map on the terminal (Firestorm: Norway digest sections 5-6): counters per location, the
Strategic Actions in progress and the open fight, drawn from `state.view(side)` so that a player never
sees the other side's dice allocation before the roll."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from warroom.cli.cells import Cell, Drawn
from warroom.rulesets.firestorm.describe import short
from warroom.rulesets.firestorm.naval_combat import target_name
from warroom.rulesets.firestorm.sea import KIND_TEXT
from warroom.rulesets.firestorm.sea_legality import NAVAL_STEPS
from warroom.rulesets.firestorm.state import FirestormState

SIDE_STYLE = {"allies": "bold blue", "axis": "bold red"}
STAGES = {"stuka": "Ju-87s may go to the land maps", "choose": "choose an action", "form": "forming a group",
          "move": "the group acts", "evade": "fight or evade", "combat": "dice", "retreat": "retreat",
          "reply": "reply to the submarines", "aim": "each counter attacks the submarines or the ships",
          "done": "action over", "end": "actions over", "over": "actions over"}


def on_strategic_map(st: FirestormState) -> bool:
    """True while the game is played on the Strategic Map (the actions, and the counters' strategic moves)."""
    return st.navy is not None and st.step in NAVAL_STEPS | {"nv_roll", "nv_reroll", "nv_bship"}




def map_table(st: FirestormState, sv: dict[str, Any]) -> Table:
    """One row per occupied (or bombed) location: each side's counters, '*' = activated, '+' = moved."""
    sc = st.sc
    a, b = sc.sides
    by_loc: dict[str, dict[str, list[str]]] = {}
    moves = st.step == "fleet_moves"
    for c in sv["counters"]:
        mark = ("+" if c["moved"] else "") if moves else "*" if c["activated"] else ""
        by_loc.setdefault(c["location"], {a: [], b: []})[c["side"]].append(c["id"] + mark)
    bombed = set(sv["bombed"])
    table = Table(expand=True, pad_edge=False, box=None, show_edge=False, header_style="bold")
    table.add_column("Location (+ moved)" if moves else "Location (* activated)",
                     no_wrap=True, max_width=27)
    table.add_column(sc.side_names[a], style=SIDE_STYLE.get(a), overflow="fold", ratio=1)
    table.add_column(sc.side_names[b], style=SIDE_STYLE.get(b), overflow="fold", ratio=1)
    for loc in sc.strat_areas:
        units = by_loc.get(loc)
        if units is None and loc not in bombed:
            continue
        units = units or {a: [], b: []}
        mark = " [bombed]" if loc in bombed else ""
        where = short(st, loc, 26 - len(mark)) + mark  # the mark within the column's width, not cut by it
        # plain cells (`Cell`): given as `str`, Rich read ' [bombed]' as markup and left it off the screen
        table.add_row(Cell(where), Cell(" ".join(units[a]) or "-"), Cell(" ".join(units[b]) or "-"))
    return table


def volley_line(st: FirestormState, v: dict[str, Any]) -> Text:
    who = st.sc.side_names.get(v["side"], v["side"])
    line = Text(f"  {v['label']}: {v['dice']} dice", style=SIDE_STYLE.get(v["side"], ""))
    if not v["dice"]:
        return line.append(" (nothing to fire at)" if not v["targets"] else "")
    if v["hidden"]:
        return line.append(f" at {', '.join(v['targets'])}; {who} allocation hidden until the roll")
    alloc = ", ".join(f"{n} at {target_name(st, t)}" for t, n in v["alloc"].items())
    line.append(f": {alloc or 'none allocated yet'}")
    if v.get("left"):
        line.append(f"; {v['left']} left to allocate among {', '.join(t for t in v['targets'] if t not in v['alloc'])}")
    if "faces" in v:
        line.append("  rolled " + " ".join(f"[{f}]" for f in v["faces"]))
    return line


def action_lines(st: FirestormState, sv: dict[str, Any]) -> list[Text]:
    """The group being formed or acting, the fight, a retreat, bombed ports and lent Stukas."""
    sc = st.sc
    lines: list[Text] = []
    g = sv["group"]
    if g is not None:
        who = sc.side_names.get(g["side"], g["side"])
        text = f"Group: {who} {KIND_TEXT[g['kind']]} at {short(st, g['at'], 40)}: {' '.join(g['units']) or '-'}"
        if g["stage"] == "form":
            text += f"; may still join: {' '.join(g['may_join']) or '-'}"
        elif len(g["path"]) > 1:
            text += f"; route {' > '.join(g['path'])}"
        if g["no_fight"]:
            text += " (evaded: may not fight again)"
        lines.append(Text(text))
    c = sv["combat"]
    if c is not None:
        state = "rolled" if c["rolled"] else "before the roll"
        lines.append(Text(f"Fight ({c['kind']}) at {short(st, c['at'], 40)}: {state}", style="bold yellow"))
        lines.extend(volley_line(st, v) for v in c["volleys"])
    r = sv["retreat"]
    if r is not None:
        who = sc.side_names.get(r["side"], r["side"])
        lines.append(Text(f"Retreating ({who}): {' '.join(r['units'])}; been in {' > '.join(r['path'])}"))
    if sv["bombed"]:
        lines.append(Text(f"Bombed this turn (no Allied supply): {', '.join(sv['bombed'])}"))
    if sv["off_map"]["sortie"]:
        lines.append(Text(f"On the land maps this turn: {', '.join(sv['off_map']['sortie'])}"))
    return lines


def strategic_panel(st: FirestormState, viewer: str | None) -> Panel:
    """The Strategic Map as `viewer` may see it (None: a spectator, who sees no unrolled allocation)."""
    sv = st.view(viewer)["strategic"]
    sc = st.sc
    if st.step == "fleet_moves":
        title = "Strategic Map: strategic moves of ships, submarines and aircraft"
    else:
        who = sc.side_names.get(sv["player"], sv["player"])
        title = f"Strategic Map: {sv['actions_left']} actions left; {who}: {STAGES.get(sv['stage'], sv['stage'])}"
    return Panel(Group(Drawn(map_table(st, sv)), *action_lines(st, sv)), title=title, border_style="cyan")
