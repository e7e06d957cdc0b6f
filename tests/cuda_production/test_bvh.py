"""wp.Bvh box and ray queries: translated, built by main() over boxes around a points array, equal to Warp.

Every kernel runs through Warp on the CPU (its BVH built over the boxes [x - h, x + h] of each point,
as the reference builds it) and as its translated .cu on the host; a count of the items a query finds
is also checked against numpy's brute force, which depends on neither tree.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from cuda_production.reference import warp_reference
from cuda_production.translator import TranslationError, translate_kernel
from synthesis.spec import ArgSpec
from tests.cuda_production.harness import arr, inputs, run_sample, scal, spec

N = 200
HALF = 0.125  # the boxes' half width around each point: a multiple of the points' 1/64 grid, exact in float


def bvh(name: str = "bvh", points: str = "x", half: float = HALF) -> ArgSpec:
    return ArgSpec(name, "uint64", "bvh", (), value=half, points=points)


def points(name: str = "x") -> ArgSpec:
    return arr(name, "vec3", shape=(N,), low=-1.0, high=1.0, bits=6)


# Every item whose box overlaps the query's box [p - r, p + r]: touching boxes count (Warp's test).
OVERLAP_COUNT = spec("overlap_count", '''
@wp.kernel
def overlap_count(bvh: wp.uint64, x: wp.array(dtype=wp.vec3), r: float, counts: wp.array(dtype=int)):
    i = wp.tid()
    p = x[i]
    query = wp.bvh_query_aabb(bvh, p - wp.vec3(r), p + wp.vec3(r))
    j = int(0)
    n = int(0)
    while wp.bvh_query_next(query, j):
        n += 1
    counts[i] = n
''', [bvh(), points(), scal("r", "float32", 0.125), arr("counts", "int32", "output", shape=(N,), bound=float(N))],
    dim=(N,))

# A broad phase then the exact test, as contact code does: overlapping spheres, their count and the
# depth of the deepest (a min/max: the same whatever order the tree yields them in), and a sum of
# penetration depths (rounded in the tree's order: equal within the tolerance)
CONTACTS = spec("contacts", '''
@wp.kernel
def contacts(spheres: wp.uint64, x: wp.array(dtype=wp.vec3), radius: float, n_contacts: wp.array(dtype=int),
             deepest: wp.array(dtype=float), total_depth: wp.array(dtype=float)):
    tid = wp.tid()
    p = x[tid]
    query = wp.bvh_query_aabb(spheres, p, p)
    other = int(0)
    count = int(0)
    depth_max = float(0.0)
    depth_sum = float(0.0)
    while wp.bvh_query_next(query, other):
        if other == tid:
            continue
        d = wp.length(p - x[other])
        if d < 2.0 * radius:
            count += 1
            depth_max = wp.max(depth_max, 2.0 * radius - d)
            depth_sum += 2.0 * radius - d
    n_contacts[tid] = count
    deepest[tid] = depth_max
    total_depth[tid] = depth_sum
''', [bvh("spheres", half=0.25), points(), scal("radius", "float32", 0.125),
      arr("n_contacts", "int32", "output", shape=(N,), bound=float(N)),
      arr("deepest", role="output", shape=(N,), bound=1.0), arr("total_depth", role="output", shape=(N,), bound=64.0)],
    dim=(N,))

# Rays through the boxes: how many boxes each ray meets, and the nearest sphere it hits (exact test)
RAYS = spec("rays", '''
@wp.kernel
def rays(bvh: wp.uint64, x: wp.array(dtype=wp.vec3), starts: wp.array(dtype=wp.vec3), dirs: wp.array(dtype=wp.vec3),
         hits: wp.array(dtype=int), nearest: wp.array(dtype=int)):
    i = wp.tid()
    o = starts[i]
    d = wp.normalize(dirs[i])
    query = wp.bvh_query_ray(bvh, o, d)
    item = int(0)
    n = int(0)
    best = float(1.0e6)
    best_item = int(-1)
    while wp.bvh_query_next(query, item):
        n += 1
        m = o - x[item]
        b = wp.dot(m, d)
        c = wp.dot(m, m) - 0.125 * 0.125
        disc = b * b - c
        if disc >= 0.0:
            t = -b - wp.sqrt(disc)
            if t > 0.0 and t < best:
                best = t
                best_item = item
    hits[i] = n
    nearest[i] = best_item
''', [bvh(), points(), arr("starts", "vec3", shape=(64,), low=-1.5, high=-1.0, bits=6),
      arr("dirs", "vec3", shape=(64,), low=0.25, high=1.0, bits=6),
      arr("hits", "int32", "output", shape=(64,), bound=float(N)), arr("nearest", "int32", "output", shape=(64,),
                                                                        bound=float(N))], dim=(64,))

# Every item whose box comes within r of the point (Warp's sphere-box test), counted
SPHERE_COUNT = spec("sphere_count", '''
@wp.kernel
def sphere_count(bvh: wp.uint64, x: wp.array(dtype=wp.vec3), r: float, counts: wp.array(dtype=int)):
    i = wp.tid()
    query = wp.bvh_query_sphere(bvh, x[i], r)
    j = int(0)
    n = int(0)
    while wp.bvh_query_next(query, j):
        n += 1
    counts[i] = n
''', [bvh(), points(), scal("r", "float32", 0.1875), arr("counts", "int32", "output", shape=(N,), bound=float(N))],
    dim=(N,))

# Two queries made before either is read: the .cu keeps each query's next node in the query itself and
# stacks nodes only while it is read, so reading the first one does not spoil the second one's start in
# the kernel's shared traversal stack
TWO_QUERIES = spec("two_queries", '''
@wp.kernel
def two_queries(bvh: wp.uint64, x: wp.array(dtype=wp.vec3), r: float, counts: wp.array(dtype=int)):
    i = wp.tid()
    p = x[i]
    near = wp.bvh_query_aabb(bvh, p - wp.vec3(r), p + wp.vec3(r))
    around = wp.bvh_query_sphere(bvh, p, 2.0 * r)
    j = int(0)
    n = int(0)
    while wp.bvh_query_next(near, j):
        n += 1
    while wp.bvh_query_next(around, j):
        n += 1000
    counts[i] = n
''', [bvh(), points(), scal("r", "float32", 0.125), arr("counts", "int32", "output", shape=(N,), bound=1000.0 * N)],
    dim=(N,))

CASES = [OVERLAP_COUNT, CONTACTS, RAYS, SPHERE_COUNT, TWO_QUERIES]


@pytest.fixture(scope="module")
def warp_results():
    return warp_reference(CASES, "test_bvh")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bvh_query_equals_warp_on_the_host(case, warp_results, tmp_path):
    run = run_sample(tmp_path, case, warp_results[case.name])
    assert run.compiled, run.output
    assert run.passed, run.output


def test_a_box_query_finds_every_item_whose_box_touches_it(warp_results):
    """Warp's count of items per query equals numpy's brute force: every point whose box
    [x - h, x + h] overlaps the query's [p - r, p + r], touching included (|p - x| <= r + h per axis)."""
    x = np.asarray(inputs(OVERLAP_COUNT)["x"], dtype=np.float64).reshape(N, 3)
    want = (np.abs(x[:, None, :] - x[None, :, :]) <= 0.125 + HALF).all(axis=2).sum(axis=1)
    got = np.frombuffer(warp_results["overlap_count"], dtype=np.int32)
    np.testing.assert_array_equal(got, want)
    assert want.min() >= 1 and want.max() > want.min()  # itself at least; the counts vary


def test_a_sphere_query_finds_every_item_whose_box_comes_within_its_radius(warp_results):
    """Warp's count per point equals numpy's: the squared distance from the point to each box
    [x - h, x + h] (per axis, 0 inside) at most r^2."""
    x = np.asarray(inputs(SPHERE_COUNT)["x"], dtype=np.float64).reshape(N, 3)
    gap = np.maximum(np.abs(x[:, None, :] - x[None, :, :]) - HALF, 0.0)
    want = ((gap ** 2).sum(axis=2) <= 0.1875 ** 2).sum(axis=1)
    np.testing.assert_array_equal(np.frombuffer(warp_results["sphere_count"], dtype=np.int32), want)
    assert want.max() > want.min() >= 1


def test_the_cu_builds_its_bvh_over_the_points_boxes():
    kernel = translate_kernel(OVERLAP_COUNT.source, "overlap_count", "overlap_count.py")
    assert kernel.params[0].kind == "bvh" and "Bvh bvh" in kernel.kernel_code
    assert "while (bvh_query_next(query, j)) {" in kernel.kernel_code
    assert "struct BvhQuery" in kernel.device_code and "boxes_overlap(" in kernel.device_code


def test_a_bvh_id_used_otherwise_is_refused():
    source = '''
@wp.kernel
def k(bvh: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=int)):
    i = wp.tid()
    query = wp.bvh_query_capsule(bvh, x[i], wp.vec3(1.0, 0.0, 0.0), 0.5)
    j = int(0)
    while wp.bvh_query_next(query, j, 1.0):
        out[i] += 1
'''
    with pytest.raises(TranslationError, match="wp.bvh_query_capsule is not translated"):
        translate_kernel(source, "k", "k.py")


def test_the_translate_cli_builds_a_users_bvh_over_the_points_its_items_are_read_from(tmp_path_factory):
    """The user's code builds the BVH: the .cu builds it over boxes around the vec3 input array the kernel
    reads at the items its query yields (`x[j]`), of half width 0.0625 unless declared; equal to Warp."""
    from tests.cuda_production.harness import translate_checked

    code, _, err, out = translate_checked(tmp_path_factory, "user_bvh", "import warp as wp\n" + CONTACTS.source)
    assert code == 0, err
    meta = json.loads((out / "contacts" / "metadata.json").read_text())
    tree = next(a for a in meta["arguments"] if a["role"] == "bvh")
    assert (tree["points"], tree["value"]) == ("x", 0.0625)


def test_a_users_bvh_over_points_the_kernel_never_reads_is_one_line_asking_for_them(tmp_path, capsys):
    from cuda_production.translate import translate_file

    source = tmp_path / "user.py"
    source.write_text('''import warp as wp

@wp.kernel
def hits(bvh: wp.uint64, lowers: wp.array(dtype=wp.vec3), uppers: wp.array(dtype=wp.vec3), counts: wp.array(dtype=int)):
    i = wp.tid()
    query = wp.bvh_query_aabb(bvh, lowers[i], uppers[i])
    j = int(0)
    while wp.bvh_query_next(query, j):
        counts[i] += 1
''')
    code = translate_file(source, tmp_path / "out")
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert code == 2 and len(err) == 1, err
    assert "parameter 'bvh' of kernel 'hits'" in err[0] and "declare them, a vec3 input array, with points=<array>" \
        in err[0]
    assert not (tmp_path / "out" / "hits").exists()


def test_a_for_loop_over_a_bvh_query_is_refused_as_warp_refuses_it():
    """Warp 1.19 has no for-loop iterator for BVH queries (only `while wp.bvh_query_next(query, j)`)."""
    source = OVERLAP_COUNT.source.replace("    j = int(0)\n", "").replace("while wp.bvh_query_next(query, j):",
                                                                       "for j in query:")
    assert "for j in query:" in source
    with pytest.raises(TranslationError, match=r"Warp iterates no BVH query: `while wp.bvh_query_next\(query, j\)`"):
        translate_kernel(source, "overlap_count", "overlap_count.py")


def test_a_query_in_a_block_wider_than_the_shared_stack_is_refused():
    """The shared traversal stack has a column for each of 256 threads: a tiled kernel launched with more
    threads per block would index past it."""
    source = '''
@wp.kernel
def k(bvh: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i, lane = wp.tid()
    q = wp.bvh_query_aabb(bvh, x[i], x[i])
    j = int(0)
    n = float(0.0)
    while wp.bvh_query_next(q, j):
        n += 1.0
    wp.tile_store(out, wp.tile_sum(wp.tile(n)), offset=i)
'''
    assert "BvhQuery" in translate_kernel(source, "k", "k.py", block_dim=256, launch_ndim=1).kernel_code
    with pytest.raises(TranslationError, match="wp.bvh_query_aabb in a kernel launched with 512 threads per block"):
        translate_kernel(source, "k", "k.py", block_dim=512, launch_ndim=1)
