"""Plane geometry for scenario data that draws land: a closed outline checked before it is used (no crossing,
some ground), and whether a point lies on it. Pure standard library: the rule packages validate their data with
it, and the drawing (warroom.server.territory) relies on what it guarantees."""

from __future__ import annotations

Point = tuple[int, int]


def outline_of(flat: tuple[int, ...], width: int, height: int, box: str) -> tuple[tuple[Point, ...], str]:
    """A `land` list of x, y pairs as an outline inside a `width` x `height` `box` ('map', 'board'), with why it
    cannot be one ('' when it can)."""
    if len(flat) % 2 or len(flat) < 6:
        return (), f"needs x, y pairs for at least 3 points, got {len(flat)} numbers"
    points = tuple(zip(flat[0::2], flat[1::2], strict=True))
    outside = [p for p in points if not (0 <= p[0] <= width and 0 <= p[1] <= height)]
    if outside:
        return (), f"point {outside[0]} lies outside the {box} ({width} x {height})"
    problem = outline_problem(points)
    return ((), problem) if problem else (points, "")


def outline_problem(points: tuple[Point, ...]) -> str:
    """Why `points`, read in order as a closed outline, cannot be a piece of land ('' when they can)."""
    crossing = crossed_edges(points)
    if crossing is not None:
        return (f"crosses itself (the edges from {points[crossing[0]]} and from {points[crossing[1]]}): list the "
                "outline's points in order round it")
    if abs(ring_area(points)) < 1:
        return "encloses no ground (its points lie on one line)"
    return ""


def ring_area(points: tuple[Point, ...]) -> float:
    """The signed area a closed outline encloses (the shoelace formula)."""
    return sum(points[i - 1][0] * p[1] - p[0] * points[i - 1][1] for i, p in enumerate(points)) / 2


def crossed_edges(points: tuple[Point, ...]) -> tuple[int, int] | None:
    """The first two edges of a closed outline that touch, not being neighbours (their starting points' indexes);
    None when it is a simple polygon."""
    n = len(points)

    def side(a: Point, b: Point, c: Point) -> int:
        turn = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (turn > 0) - (turn < 0)

    def on(a: Point, b: Point, c: Point) -> bool:
        return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])

    for i in range(n):
        a, b = points[i], points[(i + 1) % n]
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue  # the last edge meets the first at their shared point
            c, d = points[j], points[(j + 1) % n]
            s1, s2, s3, s4 = side(a, b, c), side(a, b, d), side(c, d, a), side(c, d, b)
            if (s1 != s2 and s3 != s4) or (s1 == 0 and on(a, b, c)) or (s2 == 0 and on(a, b, d)) or \
                    (s3 == 0 and on(c, d, a)) or (s4 == 0 and on(c, d, b)):
                return i, j
    return None


def inside(points: tuple[Point, ...], x: float, y: float) -> bool:
    """Whether (x, y) lies inside or on a closed outline (ray casting)."""
    hit = False
    n = len(points)
    for i in range(n):
        (x1, y1), (x2, y2) = points[i - 1], points[i]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit or any(min(points[i - 1][0], p[0]) <= x <= max(points[i - 1][0], p[0])
                      and min(points[i - 1][1], p[1]) <= y <= max(points[i - 1][1], p[1])
                      and (p[0] - points[i - 1][0]) * (y - points[i - 1][1])
                      == (p[1] - points[i - 1][1]) * (x - points[i - 1][0]) for i, p in enumerate(points))
