"""The tile map: tiles in offset rows, so that each has up to six neighbours (digest §1.4), with
range as the number of tiles between two tiles and mines on the edge two tiles share."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from pbem.rulesets.undaunted.content import Layout


def _cube(row: int, col: int) -> tuple[int, int, int]:
    # odd rows sit half a tile to the right ("odd-r" offset rows)
    x = col - (row - (row & 1)) // 2
    return x, -x - row, row


@dataclass(frozen=True)
class Board:
    layout: Layout

    @cached_property
    def at(self) -> dict[str, tuple[int, int]]:
        """Each tile's (row, column)."""
        return {t: (r, c) for r, row in enumerate(self.layout.rows) for c, t in enumerate(row) if t}

    @property
    def tiles(self) -> list[str]:
        """The tiles in map order: rows from the German edge, left to right."""
        return list(self.at)

    @cached_property
    def neighbours(self) -> dict[str, tuple[str, ...]]:
        by_cube = {_cube(*rc): t for t, rc in self.at.items()}
        steps = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))
        found = {}
        for t, rc in self.at.items():
            x, y, z = _cube(*rc)
            near = [by_cube.get((x + dx, y + dy, z + dz)) for dx, dy, dz in steps]
            found[t] = tuple(sorted((n for n in near if n), key=self.tiles.index))
        return found

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours[a]

    def distance(self, a: str, b: str) -> int:
        """The range from `a` to `b`: tiles counted without the attacker's own (same tile 0,
        adjacent 1). Tunnels join tiles for movement only and do not shorten it (ruling
        tunnels_and_range)."""
        (x1, y1, z1), (x2, y2, z2) = _cube(*self.at[a]), _cube(*self.at[b])
        return max(abs(x1 - x2), abs(y1 - y2), abs(z1 - z2))


def edge(a: str, b: str) -> list[str]:
    """The edge between two tiles, as it is written in states and orders."""
    return sorted((a, b))
