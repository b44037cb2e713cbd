"""The hex grid of the Narvik map: flat-topped hexes in columns, odd columns half a hex lower ("odd-q"), each
hex named by its column and row as four digits from 01 ("0712": column 7, row 12).

>>> neighbours("0712")
('0711', '0812', '0813', '0713', '0613', '0612')
>>> distance("0101", "0103"), distance("0101", "0401")
(2, 3)
"""

from __future__ import annotations

from functools import cache

# the six directions as (column, row) steps, for even and for odd columns: N, NE, SE, S, SW, NW
_EVEN = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_ODD = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def col_row(hid: str) -> tuple[int, int]:
    return int(hid[:2]), int(hid[2:])


def is_hex_id(text: str) -> bool:
    return len(text) == 4 and text.isdigit()


@cache
def neighbours(hid: str) -> tuple[str, ...]:
    """The six hexes round `hid`, clockwise from the north (some may be off the map: the caller checks)."""
    col, row = col_row(hid)
    steps = _ODD if col % 2 else _EVEN
    return tuple(hex_id(col + dc, row + dr) for dc, dr in steps if 0 < col + dc < 100 and 0 < row + dr < 100)


@cache
def cube(hid: str) -> tuple[int, int, int]:
    """Cube coordinates (x + y + z = 0) of a hex."""
    col, row = col_row(hid)
    x = col
    z = row - (col - (col & 1)) // 2
    return x, -x - z, z


def distance(a: str, b: str) -> int:
    """Hexes between two hexes, counting the last."""
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def centre(hid: str, size: float = 1.0) -> tuple[float, float]:
    """The centre of a hex on a drawing where neighbouring centres lie `size` * sqrt(3) apart: x grows east, y
    south."""
    col, row = col_row(hid)
    x = size * 1.5 * col
    y = size * 3 ** 0.5 * (row + (0.5 if col % 2 else 0.0))
    return x, y


def side(a: str, b: str) -> tuple[str, str]:
    """A hexside as the pair of hexes it separates, in order."""
    return (a, b) if a < b else (b, a)
