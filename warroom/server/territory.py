"""The ground of a land map, for drawing: each area as a territory, and where its labels and troops go.

An area has a centre, not an outline, so its territory is the Voronoi cell of its centre among the map's areas,
clipped to the land the scenario sketches (`land` of its `[[map]]`; the sea is what lies outside). A river is
drawn along the edge two territories share where the rules put a river between them. This is drawing only: the
rules use the areas and their borders, never these shapes.

Labels and troop tokens are laid out so that no two boxes overlap (`Layout`): every area's disc, VP badge and
markers are placed first, then each area's name plate and its block of tokens at the first free spot around its
centre, nearest first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import shapely
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box
from shapely.geometry.base import BaseGeometry


@dataclass(frozen=True, slots=True)
class Ground:
    """A land map's territories: the SVG path of each area's cell, of the land, and of each river edge."""

    cells: dict[str, str]
    land: str  # '' when the whole map is land
    rivers: tuple[tuple[str, str, str, str], ...]  # (area, area, river name, path)
    shapes: dict[str, BaseGeometry] = field(default_factory=dict)  # each cell, to keep labels inside it
    ordered: dict[tuple[Any, ...], list[tuple[float, float]]] = field(default_factory=dict)
    layers: dict[str, Any] = field(default_factory=dict)  # what a drawing of the map draws alike at every move

    def inside_first(self, area: str, spots: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
        """`spots` with those inside the area's own territory first (each group in its order): a label placed
        in a neighbour's territory would be read as the neighbour's."""
        listed = list(spots)
        shape = self.shapes.get(area)
        if shape is None or not listed:
            return listed
        inside = shapely.contains_xy(shape, [x for x, _ in listed], [y for _, y in listed])
        return [p for p, ok in zip(listed, inside, strict=True) if ok] + \
            [p for p, ok in zip(listed, inside, strict=True) if not ok]

    def spots(self, area: str, x: float, y: float, w: float, h: float, near: float,
              first: tuple[tuple[float, float], ...] = ()) -> list[tuple[float, float]]:
        """`first`, then the spots `around` the point for a `w` x `h` box, inside the area's territory first:
        worked out once per area and box size (a map is drawn again at every move, with the same areas)."""
        key = (area, x, y, w, h, near, first)
        found = self.ordered.get(key)
        if found is None:
            if len(self.ordered) > 20_000:
                self.ordered.clear()
            found = self.ordered[key] = self.inside_first(area, [*first, *around(x, y, w, h, near)])
        return found


T = TypeVar("T")
GROUNDS: dict[tuple[int, str], tuple[object, Any]] = {}
"""The territories of each map drawn so far, by the scenario object and map (the scenario kept with them, so that
its id stays its own)."""


def remembered(owner: object, key: str, build: Callable[[], T]) -> T:
    """What `build` makes of map `key` of scenario `owner` (its territories, a layer every position draws alike),
    built once."""
    cached = GROUNDS.get((id(owner), key))
    if cached is None or cached[0] is not owner:
        if len(GROUNDS) > 64:
            GROUNDS.clear()
        cached = GROUNDS[(id(owner), key)] = (owner, build())
    return cast(T, cached[1])


def path_of(geometry: BaseGeometry) -> str:
    """An SVG path for a polygon, a line or a collection of them (coordinates to one decimal)."""
    if geometry.is_empty:
        return ""
    if isinstance(geometry, Polygon):
        rings = [geometry.exterior, *geometry.interiors]
        return " ".join("M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in ring.coords[:-1]) + " Z" for ring in rings)
    if isinstance(geometry, LineString):
        return "M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in geometry.coords)
    parts: Iterable[BaseGeometry] = getattr(geometry, "geoms", ())
    return " ".join(p for p in (path_of(g) for g in parts) if p)


def ground(width: int, height: int, centres: Mapping[str, tuple[float, float]], land: Sequence[tuple[int, int]],
           rivers: Iterable[tuple[str, str, str]]) -> Ground:
    """The territories of areas with these centres on a map of this size, clipped to `land` (the whole map when
    empty), and the river edges between pairs of areas ('' paths are left out)."""
    frame = box(0, 0, width, height)
    shore = Polygon(land).buffer(0).intersection(frame) if land else frame
    ids = list(centres)
    cells: dict[str, BaseGeometry] = {}
    if len(ids) == 1:
        cells[ids[0]] = shore
    elif ids:
        points = MultiPoint([centres[i] for i in ids])
        regions = shapely.voronoi_polygons(points, extend_to=frame)
        for region in getattr(regions, "geoms", ()):
            for i in ids:
                if i not in cells and region.covers(Point(centres[i])):
                    cells[i] = region.intersection(shore)
                    break
        for i in ids:  # an area whose centre lies in the sea keeps a small disc, so that it can still be seen
            if i not in cells or cells[i].is_empty:
                cells[i] = Point(centres[i]).buffer(30)
    edges = []
    for a, b, name in rivers:
        if a not in cells or b not in cells:
            continue
        shared = cells[a].boundary.intersection(cells[b].boundary)
        line = shared if shared.length > 5 else crossing(centres[a], centres[b])
        edges.append((a, b, name, path_of(line)))
    for c in cells.values():
        shapely.prepare(c)
    return Ground({i: path_of(c) for i, c in cells.items()}, path_of(shore) if land else "", tuple(edges), cells)


def crossing(a: tuple[float, float], b: tuple[float, float], half: float = 24) -> LineString:
    """A short line across the way from `a` to `b`, at its middle: a river between territories that do not touch."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * half, dx / length * half
    return LineString([(mx - nx, my - ny), (mx + nx, my + ny)])


# ----- laying out labels and tokens without overlap ----------------------------------------------------------------
Box = tuple[float, float, float, float]
"""x, y, width, height."""


def overlaps(a: Box, b: Box, gap: float = 1.0) -> bool:
    """Whether two boxes overlap (closer than `gap`)."""
    return a[0] < b[0] + b[2] + gap and b[0] < a[0] + a[2] + gap and a[1] < b[1] + b[3] + gap and \
        b[1] < a[1] + a[3] + gap


GRID = 64.0
"""The side of the squares a layout files its boxes under, so that a new box is checked only against its
neighbours."""


@dataclass(slots=True)
class Layout:
    """Boxes placed on a map of this size: each new one goes to the first free spot of its candidates."""

    width: float
    height: float
    placed: list[Box] = field(default_factory=list)
    grid: dict[tuple[int, int], list[Box]] = field(default_factory=dict)

    def squares(self, b: Box) -> Iterator[tuple[int, int]]:
        for gx in range(int(b[0] // GRID), int((b[0] + b[2]) // GRID) + 1):
            for gy in range(int(b[1] // GRID), int((b[1] + b[3]) // GRID) + 1):
                yield gx, gy

    def block(self, b: Box) -> None:
        """A box that is already drawn (a disc, a badge): nothing may go over it."""
        self.placed.append(b)
        for square in self.squares(b):
            self.grid.setdefault(square, []).append(b)

    def free(self, b: Box) -> bool:
        inside = b[0] >= 0 and b[1] >= 0 and b[0] + b[2] <= self.width and b[1] + b[3] <= self.height
        return inside and not any(overlaps(b, p) for square in self.squares(b) for p in self.grid.get(square, ()))

    def place(self, w: float, h: float, anchors: Iterable[tuple[float, float]]) -> tuple[float, float] | None:
        """The top-left corner of the first free `w` x `h` box centred on one of `anchors`; None if none is."""
        for cx, cy in anchors:
            b = (cx - w / 2, cy - h / 2, w, h)
            if self.free(b):
                self.block(b)
                return b[0], b[1]
        return None

    def force(self, w: float, h: float, cx: float, cy: float) -> tuple[float, float]:
        """A `w` x `h` box as near (cx, cy) as the map allows, free or not: what must be seen even on a map too
        crowded to lay out (a bundled map never needs it: the layout tests say so)."""
        x = min(max(cx - w / 2, 0.0), max(self.width - w, 0.0))
        y = min(max(cy - h / 2, 0.0), max(self.height - h, 0.0))
        self.block((x, y, w, h))
        return x, y


ROUND = tuple((math.cos(math.pi / 2 + k * math.pi / 8), math.sin(math.pi / 2 + k * math.pi / 8)) for k in range(16))
"""Sixteen directions, from straight below, round."""


def around(x: float, y: float, w: float, h: float, near: float, rings: int = 7, step: float = 12) -> Iterator[
        tuple[float, float]]:
    """Centres for a `w` x `h` box around the point (x, y), nearest first: just below, above, right and left of a
    circle of radius `near`, then on rings further out."""
    yield from ((x, y + near + h / 2), (x, y - near - h / 2), (x + near + w / 2, y), (x - near - w / 2, y))
    for ring in range(1, rings + 1):
        r = near + ring * step
        for cos, sin in ROUND:
            yield x + cos * (r + w / 2), y + sin * (r + h / 2)


def token_block(widths: Sequence[float], row_width: float, h: float, gap: float = 3) -> tuple[
        float, float, list[tuple[float, float]]]:
    """Tokens of these widths in centred rows no wider than `row_width`: the block's size and each token's
    offset from the block's top-left corner."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for i, w in enumerate(widths):
        if rows[-1] and used + w > row_width:
            rows.append([])
            used = 0.0
        rows[-1].append(i)
        used += w + gap
    block_w = max((sum(widths[i] + gap for i in row) - gap for row in rows if row), default=0.0)
    offsets = [(0.0, 0.0)] * len(widths)
    for r, row in enumerate(rows):
        total = sum(widths[i] + gap for i in row) - gap
        x = (block_w - total) / 2
        for i in row:
            offsets[i] = (x, r * (h + 2))
            x += widths[i] + gap
    return block_w, len(rows) * (h + 2) - 2, offsets


def any_free(layout: Layout, options: Sequence[tuple[float, float, list[tuple[float, float]]]],
             anchors: Any) -> tuple[int, tuple[float, float]] | None:
    """The first of several block shapes (width, height, ...) that fits at one of its anchors: (its index, the
    top-left corner), or None."""
    for i, (w, h, _offsets) in enumerate(options):
        corner = layout.place(w, h, anchors(w, h))
        if corner is not None:
            return i, corner
    return None
