"""The campaign screen's table cells (`warroom.cli.cells.Cell`) show exactly what a plain text cell shows with no
markup read: the same characters and styles at every width, however often the same text is drawn, and their own
brackets (an area's flags, a bombed port's mark) shown as they are. A kept table (`Drawn`) shows exactly what the
table itself shows, however often it is drawn, and a changed cell is shown changed."""

from __future__ import annotations

import copy
import io
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as hst
from rich.console import Console, Group, JustifyMethod, OverflowMethod, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from warroom.cli.cells import Cell, Drawn
from warroom.cli.kampen_screen import screen as kampen_screen
from warroom.cli.screen import areas_table
from warroom.cli.sea_screen import map_table
from warroom.rulesets.firestorm import new_game
from warroom.rulesets.firestorm.describe import short
from warroom.rulesets.kampen import new_game as kampen_game
from warroom.scenarios import load_game

WORDS = hst.sampled_from(["B5", "Bréville", "[river]", "[bold]x[/bold]", "Caen", "-", "OUT", "in supply", "~", "12",
                          "a-very-long-name-that-cannot-be-broken", "   ", "\t", "Écouché", "東京", "Allies: 3 (2)"])

OVERFLOWS: tuple[OverflowMethod, ...] = ("fold", "ellipsis", "crop")


def drawn(rows: list[list[object]], width: int, console: Console | None = None) -> str:
    """The table of `rows` as a terminal of `width` columns (`console`, or a fresh one) shows it, styles and all (its
    columns overflowing in each of Rich's ways)."""
    return shown(table_of(rows), width, console)


def table_of(rows: list[list[object]], title: str = "T", justify: JustifyMethod = "left") -> Table:
    """A table of `rows` titled `title`, its first column justified `justify`, its columns overflowing in each of
    Rich's ways."""
    table = Table(title=title, expand=True, pad_edge=False)
    for col, overflow in zip(range(len(rows[0])), OVERFLOWS, strict=False):
        table.add_column(f"c{col}", overflow=overflow, justify=justify if col == 0 else "left")
    for row in rows:
        table.add_row(*row)  # type: ignore[arg-type]
    return table


@settings(max_examples=60, deadline=None)
@given(texts=hst.lists(hst.lists(hst.lists(WORDS, max_size=4).map(" ".join), min_size=3, max_size=3), min_size=1,
                       max_size=4),
       widths=hst.lists(hst.integers(20, 160), min_size=1, max_size=3))
def test_a_cell_is_drawn_as_its_plain_text_is(texts: list[list[str]], widths: list[int]) -> None:
    """One terminal (whose width changes, as a resized window's does) draws the cells again and again, from what it
    kept: always what a fresh terminal draws of the plain texts."""
    terminal = terminal_of_its_own(markup=True)  # a Cell reads no markup, whatever its console does
    for width in [*widths, *widths]:
        terminal.width = width
        assert drawn([[Cell(t) for t in row] for row in texts], width, terminal) == drawn(
            [list(row) for row in texts], width)


STYLES = hst.sampled_from(["", "bold", "bold blue", "italic red"])


@settings(max_examples=25, deadline=None)
@given(texts=hst.lists(hst.lists(hst.tuples(hst.lists(WORDS, max_size=4).map(" ".join), STYLES,
                                            hst.sampled_from([Cell, Text, str])), min_size=3, max_size=3),
                       min_size=1, max_size=4),
       widths=hst.lists(hst.integers(20, 160), min_size=1, max_size=2), changed=hst.integers(0))
def test_a_kept_table_is_drawn_as_the_table_is_and_a_changed_table_is_drawn_changed(
        texts: list[list[tuple[str, str, type]]], widths: list[int], changed: int) -> None:
    """Two terminals (whose widths change; one reads markup, the other does not and has its own tab size) draw
    the same tables again and again, from what they kept, and tables like them but for one thing: a cell's text,
    style or styled part, the title, a column's justification, or how it is printed. Always what a fresh terminal
    like each draws of the table itself."""

    def cell(text: str, style: str, kind: type) -> object:
        return Cell(text) if kind is Cell else Text(text, style=style) if kind is Text else text

    rows = [[cell(*spec) for spec in row] for row in texts]
    flat = [(r, c) for r in range(len(texts)) for c in range(3)]
    r, c = flat[changed % len(flat)]
    text, style, kind = texts[r][c]

    def but(new: object) -> list[list[object]]:
        changed_rows = [list(row) for row in rows]
        changed_rows[r][c] = new
        return changed_rows

    half = Text(text, style=style)
    half.stylize("underline", 0, max(1, len(text) // 2))
    variants: list[tuple[list[list[object]], str, JustifyMethod, bool]] = [
        (rows, "T", "left", True),
        (but(Text(text + "x", style=style) if kind is Text else cell(text + "x", style, kind)), "T", "left", True),
        (but(Text(text, style="bold green" if style != "bold green" else "")), "T", "left", True),
        (but(half), "T", "left", True),
        (rows, "U", "left", True),
        (rows, "T", "right", True),
        (rows, "T", "left", False),
    ]
    settings_of = [(True, 8), (False, 4)]  # reads markup, tab size
    terminals = [terminal_of_its_own(*how) for how in settings_of]
    for width in widths:
        for terminal, how in zip(terminals, settings_of, strict=True):
            terminal.width = width
            fresh = terminal_of_its_own(*how)
            expected = [shown(table_of(table_rows, title, justify), width, fresh, markup)
                        for table_rows, title, justify, markup in variants]
            for _ in range(2):  # drawn, then drawn from what was kept
                assert [shown(Drawn(table_of(table_rows, title, justify)), width, terminal, markup)
                        for table_rows, title, justify, markup in variants] == expected


def test_a_table_holding_what_cannot_be_kept_is_drawn_all_the_same() -> None:
    """A cell Drawn cannot read (here a panel) leaves the table drawn as Rich draws it, each time afresh."""
    terminal = terminal_of_its_own()
    for text in ("one", "two", "one"):
        table = table_of([[Panel(text), "b", Cell("c")]])
        assert shown(Drawn(table), 50, terminal) == shown(table, 50)
        assert text in shown(Drawn(table), 50, terminal)


def test_the_areas_table_reads_as_it_did_with_plain_text() -> None:
    table = areas_table(new_game(load_game("norway"), {}))
    assert_drawn_as_plain(table)
    assert "[source (Allies); beach]" in shown(areas_table(new_game(load_game("caen"), {})), 400), \
        "an area's flags are shown, not read as markup"


def test_the_strategic_map_reads_as_it_did_with_plain_text_and_shows_a_bombed_port() -> None:
    st = new_game(load_game("norway"), {})
    sv = st.view(None)["strategic"]
    port = next(loc for loc in st.sc.strat_areas if all(c["location"] != loc for c in sv["counters"]))
    table = map_table(st, {**sv, "bombed": [port]})
    assert_drawn_as_plain(table)
    assert f"\n{short(st, port, 17)} [bombed] " in shown(table, 400), "the mark is shown whole, not read as markup"


def test_the_battalions_table_reads_as_it_did_with_plain_text() -> None:
    st = kampen_game(None, {"advanced": True})
    group = kampen_screen(st, st.legal_actions())
    assert isinstance(group, Group)
    (table,) = [r.table for r in group.renderables if isinstance(r, Drawn)][:1]
    assert_drawn_as_plain(table)


def assert_drawn_as_plain(table: Table) -> None:
    """`table`, its cells made `Cell`s, draws as the same table of their plain texts (its columns and all) on a
    terminal that reads no markup, at each width."""
    cells = [c for column in table.columns for c in column.cells]
    assert any(isinstance(c, Cell) for c in cells) and not any(isinstance(c, str) and c for c in cells)
    plain = copy.copy(table)
    plain.columns = [replace(column, _cells=[c.text if isinstance(c, Cell) else c for c in column.cells])
                     for column in table.columns]
    terminal = terminal_of_its_own(markup=True)
    for width in (60, 120, 200, 60):
        assert shown(table, width, terminal) == shown(plain, width)


def terminal_of_its_own(markup: bool = False, tab_size: int = 8) -> Console:
    """A terminal that reads no markup in a plain text cell (or, with `markup`, the default one that does)."""
    return Console(file=io.StringIO(), width=80, color_system="truecolor", force_terminal=True, markup=markup,
                   tab_size=tab_size)


def shown(table: RenderableType, width: int, console: Console | None = None, markup: bool | None = None) -> str:
    """What `console` (or a fresh terminal) prints of `table` at `width` columns (reading markup in `str` cells as
    `markup` says, else as the console does)."""
    console = console or terminal_of_its_own()
    console.width = width
    out = console.file
    assert isinstance(out, io.StringIO)
    start = out.tell()
    console.print(table, markup=markup)
    return out.getvalue()[start:]
