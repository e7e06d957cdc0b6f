"""scripts/bench_bounds.py's check of grown outputs, on planted bench results."""
import numpy as np

from scripts.bench_bounds import bench_dims, unwritten_growth
from synthesis.spec import ArgSpec

LAUNCH = 64


def _meta(*args: ArgSpec) -> dict:
    return {"arguments": [a.to_dict() for a in args], "launch_dim": [LAUNCH],
            "written_arrays": [a.name for a in args if a.role == "output"]}


def _dump(*arrays: np.ndarray) -> bytes:
    return b"".join(a.tobytes() for a in arrays)


def test_an_output_that_grew_but_whose_grown_rows_stayed_zero_is_reported():
    """A table of 64 cells, sized like the launch, grown to 129 at `--bench-dim 129`: the threads wrote
    only cells below 64 (their positions' fixed range), so the rest is bytes no thread touched."""
    cells = ArgSpec("cells", "int32", "output", (LAUNCH,), 0, 0, 0)
    out = ArgSpec("out", "float32", "output", (LAUNCH,), -1.0, 1.0, 10)
    grown_rows = 2 * LAUNCH + 1
    table = np.zeros(grown_rows, np.int32)
    table[:LAUNCH] = np.arange(1, LAUNCH + 1)
    values = np.linspace(0.5, 1.0, grown_rows, dtype=np.float32)
    assert unwritten_growth(_meta(cells, out), _dump(table, values), grown_rows) == ["cells"]
    table[LAUNCH + 3] = 7  # one thread past the check rows wrote it: it grows with the launch
    assert unwritten_growth(_meta(cells, out), _dump(table, values), grown_rows) == []


def test_an_output_that_keeps_its_size_or_is_never_written_is_not_reported():
    cells = ArgSpec("cells", "int32", "output", (LAUNCH,), 0, 0, 0, keeps_size=True)
    total = ArgSpec("total", "float32", "output", (1,), -1.0, 1.0, 10)
    quiet = ArgSpec("quiet", "float32", "output", (LAUNCH,), -1.0, 1.0, 10)  # all zero: nothing to judge by
    grown_rows = 2 * LAUNCH + 1
    dump = _dump(np.arange(LAUNCH, dtype=np.int32), np.ones(1, np.float32), np.zeros(grown_rows, np.float32))
    assert unwritten_growth(_meta(cells, total, quiet), dump, grown_rows) == []


def test_bench_sizes_lie_below_the_check_launch_and_past_it():
    dims = bench_dims(100)
    assert dims == [25, 34, 201] and bench_dims(1) == [1, 3]
