from typing import Any

import warp as wp


@wp.func
def interpolate(values: wp.array(dtype=Any), i: int, j: int, k: int, u: float, v: float):
    return values[i] * (1.0 - u - v) + values[j] * u + values[k] * v

@wp.kernel(enable_backward=False)
def vec_b738b5b622(face_ids: wp.array(dtype=int), tri_indices: wp.array2d(dtype=int), uv_coords: wp.array(dtype=wp.vec2), verts: wp.array(dtype=wp.vec3), sample_points_x: wp.array(dtype=float), sample_points_y: wp.array(dtype=float), sample_points_z: wp.array(dtype=float), density: wp.array(dtype=float), sample_values: wp.array(dtype=float), colors: wp.array(dtype=wp.vec4), sample_colors: wp.array(dtype=wp.vec4), normals: wp.array(dtype=wp.vec3), sample_normals: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    f = face_ids[tid]
    i0 = tri_indices[f, 0]
    i1 = tri_indices[f, 1]
    i2 = tri_indices[f, 2]
    uv = uv_coords[tid]
    u = uv[0]
    v = uv[1]
    sample_points = interpolate(verts, i0, i1, i2, u, v)
    sample_points_x[tid] = sample_points[0]
    sample_points_y[tid] = sample_points[1]
    sample_points_z[tid] = sample_points[2]
    sample_values[tid] = interpolate(density, i0, i1, i2, u, v)
    sample_colors[tid] = interpolate(colors, i0, i1, i2, u, v)
    sample_normals[tid] = wp.normalize(interpolate(normals, i0, i1, i2, u, v))
