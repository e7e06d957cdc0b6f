import warp as wp


@wp.kernel
def xform_f761b817b9(com: wp.array[wp.vec3], orientation: wp.quat, X_parent: wp.transform, frames_out: wp.array[wp.transform]):
    tid = wp.tid()
    X = wp.transform(com[tid], orientation)
    X_child = wp.mul(X_parent, X)
    frames_out[tid] = X_child
