import warp as wp


@wp.kernel
def xform_f761b817b9(com: wp.array[wp.vec3], orientation: wp.quat, X_parent: wp.transform, world_frames: wp.array[wp.transform]):
    tid = wp.tid()
    X = wp.transform(com[tid], orientation)
    X_child = wp.mul(X_parent, X)
    world_frames[tid] = X_child
