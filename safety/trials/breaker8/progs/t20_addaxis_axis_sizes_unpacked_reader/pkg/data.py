from pkg import config as C


def per_replica(global_batch):
    dp, tp = C.MESH.axis_sizes
    return global_batch // dp
