"""The triangle mesh a `mesh` argument stands for: a closed, bumpy "rock" built from a cube.

One description, two builders: this module (for Warp's reference, `wp.Mesh`) and the C++ in the
sample's `main()` (cuda_production/templates.py) build the same vertices and triangles, in the same
order, from the same integers. A coordinate is a multiple of a quarter cell, times the cell width,
in double precision, rounded once to float32: both builders produce the same floats bit for bit.
The generator picks cell widths that are not dyadic (e.g. 0.1037), so no face lies exactly on the
2**-k lattice the query points are drawn from: a query never sits exactly on the surface, where the
inside/outside sign would be a coin toss.

The cube [-cells/2, cells/2]^3 (in cells) has each face cut into cells x cells squares, two
triangles each, wound counter-clockwise seen from outside (outward normals, as Warp's sign queries
expect). A vertex inside a face (not on a cube edge) moves outward along that face's normal by
0-3 quarters of a cell, chosen by a 32-bit hash of its lattice point and the salt: the surface is
closed, never self-intersecting (a move is less than a cell), and different for every salt.
"""
from __future__ import annotations

MASK32 = 0xFFFFFFFF
BUMP_LEVELS = 4  # a face vertex moves out by 0, 1, 2 or 3 quarters of a cell


def bump_hash(i: int, j: int, k: int, salt: int) -> int:
    """32-bit hash of a lattice point (unsigned arithmetic, as in the C++ builder)."""
    h = ((i * 73856093) ^ (j * 19349663) ^ (k * 83492791) ^ salt) & MASK32
    h ^= h >> 16
    h = (h * 0x45D9F3B) & MASK32
    h ^= h >> 16
    return h


def rock_vertex_count(cells: int) -> int:
    return (cells + 1) ** 3 - (cells - 1) ** 3


def rock_triangle_count(cells: int) -> int:
    return 12 * cells * cells


def rock_mesh(cells: int, cell_width: float, salt: int) -> tuple[list[tuple[float, float, float]], list[int]]:
    """(points, flat triangle indices) of the rock with `cells` cells per cube edge (even)."""
    if cells < 2 or cells % 2:
        raise ValueError(f"a rock mesh needs an even number of cells per edge, got {cells}")
    half = cells // 2
    index: dict[tuple[int, int, int], int] = {}
    points: list[tuple[float, float, float]] = []
    for i in range(cells + 1):
        for j in range(cells + 1):
            for k in range(cells + 1):
                lattice = (i, j, k)
                on_side = [a for a in range(3) if lattice[a] in (0, cells)]
                if not on_side:
                    continue
                coords = [float(c - half) for c in lattice]
                if len(on_side) == 1:  # inside one face: bump outward along its normal
                    a = on_side[0]
                    bump = 0.25 * (bump_hash(i, j, k, salt) % BUMP_LEVELS)
                    coords[a] += bump if lattice[a] == cells else -bump
                index[lattice] = len(points)
                points.append(tuple(c * cell_width for c in coords))
    triangles: list[int] = []
    for a in range(3):
        b, c = (a + 1) % 3, (a + 2) % 3
        for side in (0, cells):
            for u in range(cells):
                for w in range(cells):
                    def corner(du: int, dw: int) -> int:
                        lattice = [0, 0, 0]
                        lattice[a], lattice[b], lattice[c] = side, u + du, w + dw
                        return index[tuple(lattice)]

                    v00, v10, v11, v01 = corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)
                    if side == cells:  # (b, c, a) is right-handed: counter-clockwise seen from +a
                        triangles += [v00, v10, v11, v00, v11, v01]
                    else:
                        triangles += [v00, v11, v10, v00, v01, v11]
    return points, triangles


def rock_extent(cells: int, cell_width: float) -> float:
    """Half the side of a cube centred at the origin that holds every vertex."""
    return (cells / 2 + 0.25 * (BUMP_LEVELS - 1)) * cell_width
