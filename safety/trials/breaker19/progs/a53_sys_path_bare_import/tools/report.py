import sys

sys.path.insert(0, 'pkg')
import config  # noqa: E402


def factor():
    return config.MESH.devices.shape[0]
