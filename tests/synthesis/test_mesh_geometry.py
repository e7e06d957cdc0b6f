"""The rock mesh every `mesh` argument stands for: closed, wound outward, on a lattice, salted."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from synthesis.mesh_geometry import rock_extent, rock_mesh, rock_triangle_count, rock_vertex_count


def edges_of(triangles: list[int]) -> Counter:
    tris = np.array(triangles).reshape(-1, 3)
    return Counter((int(t[e]), int(t[(e + 1) % 3])) for t in tris for e in range(3))


def test_every_directed_edge_has_its_opposite_once():
    """Closed and consistently wound: each edge a->b appears once and b->a once."""
    directed = edges_of(rock_mesh(6, 0.25, 99)[1])
    assert all(n == 1 for n in directed.values())
    assert all(directed[(b, a)] == 1 for a, b in directed)


def test_counts_match_the_closed_forms():
    points, triangles = rock_mesh(10, 0.125, 7)
    assert len(points) == rock_vertex_count(10) and len(triangles) == 3 * rock_triangle_count(10)
    assert len(points) - 3 * rock_triangle_count(10) // 2 + rock_triangle_count(10) == 2  # Euler: sphere


def test_signed_volume_is_positive_so_normals_point_out():
    points, triangles = rock_mesh(8, 0.5, 3)
    p = np.array(points, dtype=np.float64)
    t = np.array(triangles).reshape(-1, 3)
    volume = np.einsum("ij,ij->i", p[t[:, 0]], np.cross(p[t[:, 1]], p[t[:, 2]])).sum() / 6.0
    side = 8 * 0.5
    assert side ** 3 < volume < (side + 1.5 * 0.5) ** 3


def test_coordinates_are_quarter_cell_multiples_within_the_extent():
    points, _ = rock_mesh(8, 0.125, 11)
    quarters = np.array(points) / (0.125 / 4)
    assert np.array_equal(quarters, np.round(quarters))
    assert np.abs(points).max() <= rock_extent(8, 0.125)


def test_the_salt_moves_the_bumps():
    a, _ = rock_mesh(8, 0.25, 1)
    b, _ = rock_mesh(8, 0.25, 2)
    moved = sum(p != q for p, q in zip(a, b))
    assert moved > len(a) // 4


def test_odd_cell_counts_are_refused():
    with pytest.raises(ValueError, match="even number of cells"):
        rock_mesh(5, 0.25, 0)
