"""The Narvik map at the terminal: the hex grid round the units and the victory ports, two text lines per row
of hexes (the odd columns sit half a hex lower) and two characters per hex (the whole map fits 80 columns), then
the units by hex, the battle being fought and the choices.
Everything comes from the position as every side sees it: the game hides nothing."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from warroom.cli.cells import Drawn
from warroom.core.state import Action
from warroom.rulesets.narvik.hexes import col_row, hex_id
from warroom.rulesets.narvik.state import NarvikState

GLYPH = {"clear": ".", "forest": "f", "rough": "r", "mountain": "^", "glacier": "*", "sea": "~", "lake": "~",
         "neutral": " "}
STYLE = {"german": "bold black on grey70", "allied": "bold white on blue", "both": "bold white on red"}
MARGIN = 2


def window(st: NarvikState) -> tuple[int, int, int, int]:
    """(first column, last column, first row, last row) round every unit and victory port, with a margin."""
    hexes = [*st.pos.values(), *(st.sc.map.place_hex(p) for p in st.sc.victory_ports)]
    cols = [col_row(h)[0] for h in hexes]
    rows = [col_row(h)[1] for h in hexes]
    m = st.sc.map
    return (max(1, min(cols) - MARGIN), min(m.columns, max(cols) + MARGIN), max(1, min(rows) - MARGIN),
            min(m.rows, max(rows) + MARGIN))


def cell(st: NarvikState, hid: str, ports: set[str]) -> Text:
    """Two characters for a hex: who is there (G, A, or X for both) with how many units (+ for ten or more), else
    its terrain, a victory port marked @ and another port p."""
    here = {st.types[u].side for u, h in st.pos.items() if h == hid}
    count = sum(1 for h in st.pos.values() if h == hid)
    if here:
        who = "both" if len(here) == 2 else here.pop()
        mark = {"german": "G", "allied": "A", "both": "X"}[who]
        return Text(f"{mark}{count if count < 10 else '+'}", style=STYLE[who])
    terrain = st.sc.map.terrain.get(hid, "neutral")
    kinds = st.sc.map.kinds_at(hid)
    glyph = "@" if hid in ports else ("p" if "port" in kinds else GLYPH[terrain])
    return Text(f"{glyph}{GLYPH[terrain] if glyph != GLYPH[terrain] else ' '}")


def map_text(st: NarvikState) -> Text:
    c0, c1, r0, r1 = window(st)
    ports = {st.sc.map.place_hex(p) for p in st.sc.victory_ports}
    out = Text()
    out.append("    " + "".join(f"{c:02d}  " for c in range(c0, c1 + 1, 2)).rstrip() + "\n")
    for r in range(r0, r1 + 1):
        for odd in (False, True):
            line = Text(f"{r:02d}{'+' if odd else ' '} ")
            for c in range(c0, c1 + 1):
                if (c % 2 == 1) == odd:
                    line.append_text(cell(st, hex_id(c, r), ports))
                else:
                    line.append("  ")
            out.append_text(line)
            out.append("\n")
    return out


def units_table(st: NarvikState) -> Table:
    table = Table(title="Units by hex (d disrupted, o overstacked, + absorbed)")
    for col in ("hex", "German", "Allied"):
        table.add_column(col)
    for hid in sorted(set(st.pos.values())):
        cells = []
        for side in ("german", "allied"):
            names = []
            for u in st.units_in(hid, side):
                t = st.types[u]
                marks = ("d" if u in st.disrupted else "") + ("o" if u in st.overstacked else "") + (
                    "+" if u in st.absorbed else "")
                names.append(f"{t.short} {t.attack}-{t.defense}-{t.movement}{' ' + marks if marks else ''}")
            cells.append(", ".join(names))
        table.add_row(st.hex_name(hid), *cells)
    return table


def screen(st: NarvikState, legal: Sequence[Action], seen: int | None = None, viewer: str | None = None
           ) -> RenderableType:
    view = st.view(viewer)
    head = Text(f"{st.sc.title} - turn {st.game_turn} ({view['dates']}), {st.sc.names[st.phasing]}' player turn, "
                f"{st.phase()} phase")
    ports = ", ".join(view["victory_ports_german"]) or "none"
    standing = Text(f"Victory ports German: {ports}; victory points German {st.vp['german']}, Allied "
                    f"{st.vp['allied']}; standing: {view['standing']}")
    parts: list[RenderableType] = [head, standing, map_text(st),
                                   Text("G German, A Allied, X both (with how many units); @ victory port, p port, "
                                        ". clear, f forest, r rough, ^ mountain, * glacier, ~ water"),
                                   Drawn(units_table(st))]
    battle = view["battle"]
    if battle is not None:
        parts.append(Text(f"Battle in {st.hex_name(battle['hex'])}: {battle['attack']:g} against "
                          f"{battle['defense']:g}, terrain {battle['terrain_shift']:+d}, column {battle['column']}"))
    if legal:
        shown = [f"{i}. {a.to_str()}" for i, a in enumerate(legal[:30], start=1)]
        more = f" ... and {len(legal) - 30} more ('options' lists all)" if len(legal) > 30 else ""
        parts.append(Text(f"{st.sc.names.get(st.current_player(), '')}: choose by number or type the action"))
        parts.append(Text("  ".join(shown) + more))
    return Group(*parts)
