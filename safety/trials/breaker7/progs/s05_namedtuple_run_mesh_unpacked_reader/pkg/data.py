from pkg.config import RUN


def local_batch():
    mesh, global_batch = RUN
    return global_batch // mesh.devices.shape[0]
