"""Table cells for the terminal's screens: plain text, drawn by Rich as it draws a `Text` of it, but measured and
wrapped once for each text and width (`Cell`); and whole tables, drawn once for each content and width (`Drawn`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import fields
from functools import lru_cache

from rich.box import Box
from rich.console import Console, ConsoleOptions, JustifyMethod, OverflowMethod
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Column, Row, Table
from rich.text import Text


class Cell:
    """A table cell's text, shown as plain text (as a `Text` of it is: no markup read), wrapped to its column, and
    measured and wrapped once for each text and width rather than on every screen.

    Plain: the texts are the scenario's and the game's, and their brackets are their own (an area's flags, as in
    'Gold Beach [source (Allies); beach]'). Given to the table as `str`, Rich read them as markup and the flags
    vanished from the screen.

    Once: the big tables are most of the time between two prompts (Firestorm's Areas table 18 of the 32 CPU
    seconds of a hot-seat game of Norway, Kampen om Norge's Battalions table most of a game's): Rich measures and
    wraps each of their hundreds of cells again for every screen, though nearly all of them (names, terrain,
    neighbours, who holds an area and its troops) read the same as on the screen before. What is
    kept is keyed by everything the drawing reads but the console's theme and highlighter, which the CLI's console
    never changes."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return _measured(console, self.text)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterable[Segment]:
        return _wrapped(console, self.text, options.max_width, options.justify, options.overflow, options.no_wrap,
                        options.highlight, options)


@lru_cache(maxsize=4096)
def _measured(console: Console, text: str) -> Measurement:
    """As `Measurement.get` measures the text (before it bounds the result by the width)."""
    return console.render_str(text, markup=False, highlight=False).__rich_measure__(console, console.options)


def _wrapped(console: Console, text: str, width: int, justify: JustifyMethod | None, overflow: OverflowMethod | None,
             no_wrap: bool | None, highlight: bool | None, options: ConsoleOptions) -> tuple[Segment, ...]:
    """As `Console.render` renders the text: the options it reads, and the console's tab size, are the key
    (`options` itself is not)."""
    key = (console, console.tab_size, text, width, justify, overflow, no_wrap, highlight)
    return _kept(_WRAPPED, 8192, key, lambda: console.render_str(text, highlight=highlight, markup=False)
                 .__rich_console__(console, options))


def _kept(store: dict[tuple[object, ...], tuple[Segment, ...]], most: int, key: tuple[object, ...],
          draw: Callable[[], Iterable[Segment]]) -> tuple[Segment, ...]:
    """What `draw` draws, kept in `store` under `key` (emptied when it holds `most`)."""
    done = store.get(key)
    if done is None:
        if len(store) >= most:
            store.clear()
        done = store[key] = tuple(draw())
    return done


_WRAPPED: dict[tuple[object, ...], tuple[Segment, ...]] = {}


class Drawn:
    """A table, drawn by Rich once for each content and set of console options, and kept (`Cell` keeps its cells;
    this keeps the whole table: Rich's own work between the cells, its padding, measuring and cropping of every
    cell, was still most of a screen's time).

    What is kept is keyed by everything the table holds (its settings, columns and every cell's text and styles:
    `_content`) and by everything the drawing reads of the console: the options it is drawn with and the tab size
    (the theme and highlighter, as for `Cell`, are never changed by the CLI's console). A table holding anything
    `_content` cannot read is drawn as Rich draws it, and not kept."""

    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        self.table = table

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return self.table.__rich_measure__(console, options)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterable[Segment]:
        try:
            content = _content(self.table)
        except TypeError:
            return console.render(self.table, options)
        key = (console, console.tab_size, content, tuple(getattr(options, name) for name in _OPTIONS))
        return _kept(_DRAWN, 256, key, lambda: console.render(self.table, options))


_OPTIONS = tuple(field.name for field in fields(ConsoleOptions))
_DRAWN: dict[tuple[object, ...], tuple[Segment, ...]] = {}
_PLAIN = (str, int, float, bool, type(None), Style, Box)


def _content(value: object) -> Hashable:
    """Everything `value` (a table, or a part of one) holds, as a hashable value; TypeError for what it cannot
    read."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, Cell):
        return (Cell, value.text)
    if isinstance(value, Text):
        return (Text, value.plain, tuple(value.spans), value.style, value.justify, value.overflow, value.no_wrap,
                value.end, value.tab_size)
    if isinstance(value, list | tuple):
        return tuple(_content(part) for part in value)
    if isinstance(value, Table):
        return (Table, *((name, _content(part)) for name, part in sorted(vars(value).items())))
    if isinstance(value, Column | Row):
        return (type(value), *(_content(getattr(value, field.name)) for field in fields(value)))
    raise TypeError(f"a table cell of type {type(value).__name__} is not kept")
