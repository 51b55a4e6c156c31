import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pkg"))
import config  # noqa: E402


def factor():
    return config.MESH.devices.shape[0]
