"""Table cells for the terminal's screens: plain text, drawn by Rich as it draws a `Text` of it, but measured and
wrapped once for each text and width (`Cell`)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from rich.console import Console, ConsoleOptions, JustifyMethod, OverflowMethod
from rich.measure import Measurement
from rich.segment import Segment


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
    done = _WRAPPED.get(key)
    if done is None:
        if len(_WRAPPED) >= 8192:
            _WRAPPED.clear()
        done = _WRAPPED[key] = tuple(console.render_str(text, highlight=highlight, markup=False)
                                     .__rich_console__(console, options))
    return done


_WRAPPED: dict[tuple[object, ...], tuple[Segment, ...]] = {}
