from .config import MESH


def per_replica(global_batch):
    return global_batch // MESH.devices.shape[0]
