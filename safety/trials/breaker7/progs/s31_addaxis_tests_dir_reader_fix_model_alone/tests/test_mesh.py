from pkg.config import MESH as TRAIN_MESH


def per_replica(global_batch):
    return global_batch // TRAIN_MESH.devices.shape[0]


def test_per_replica():
    assert per_replica(16) == 8
