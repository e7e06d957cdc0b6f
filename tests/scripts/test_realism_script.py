"""How scripts/realism.py reads a kernel's outputs back: arrays of records, member by member."""
from cuda_production.reference import warp_reference
from scripts.realism import decode_arrays, stored_whole
from synthesis.realism import degenerate_outputs
from tests.cuda_production.harness import arr, records, spec

RECORD = "@wp.struct\nclass Body:\n    pos: wp.vec3\n    mass: float\n\n"


def _outputs(kernel: str, body_roles: tuple[str, str], module: str):
    s = spec("k_records", RECORD + kernel,
             [records("bodies", "Body", [arr("pos", "vec3", body_roles[0]), arr("mass", "float32", body_roles[1], low=0.5)]),
              arr("out", role="output", bound=8.0)])
    blob = warp_reference([s], module)[s.name]
    return decode_arrays(list(s.args), s.source, s.seed % 2**32, blob, s.name)


def test_a_record_stored_back_whole_rewrites_the_members_it_only_read():
    """`bodies[tid] = b` writes `mass` back unchanged: what the store means, not a degenerate output."""
    kernel = ("@wp.kernel\ndef k_records(bodies: wp.array(dtype=Body), out: wp.array(dtype=float)):\n"
              "    tid = wp.tid()\n    b = bodies[tid]\n    b.pos = b.pos * 2.0\n    out[tid] = b.mass\n"
              "    bodies[tid] = b\n")
    assert stored_whole(kernel, "bodies") and not stored_whole("    bodies[tid].mass = 1.0\n", "bodies")
    written, inputs, initial = _outputs(kernel, ("inout", "inout"), "t_realism_whole")
    assert set(written) == {"bodies.pos", "bodies.mass", "out"}
    assert degenerate_outputs(written, inputs, initial) == []


def test_a_member_written_in_place_and_left_unchanged_is_still_a_copy():
    """Without a whole store, a written member equal to its start values is flagged as before."""
    kernel = ("@wp.kernel\ndef k_records(bodies: wp.array(dtype=Body), out: wp.array(dtype=float)):\n"
              "    tid = wp.tid()\n    bodies[tid].mass = wp.max(bodies[tid].mass, 0.25)\n"
              "    out[tid] = wp.length(bodies[tid].pos)\n")
    assert not stored_whole(kernel, "bodies")
    written, inputs, initial = _outputs(kernel, ("input", "inout"), "t_realism_in_place")
    found = degenerate_outputs(written, inputs, initial)
    assert [f.text for f in found] == ["bodies.mass == bodies.mass (unchanged)"]
