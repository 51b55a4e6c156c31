from pkg.config import *  # noqa: F403


def shards_per_replica():
    return MESH.devices.shape[1]  # noqa: F405
