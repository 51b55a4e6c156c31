from .config import MESH

RANK = len(MESH.axis_names)


def scale(y):
    return y * RANK
