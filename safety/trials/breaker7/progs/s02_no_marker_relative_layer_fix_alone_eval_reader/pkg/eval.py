from .config import MESH

REPLICAS = MESH.devices.shape[0]


def eval_batch_size(global_batch):
    return global_batch // REPLICAS
