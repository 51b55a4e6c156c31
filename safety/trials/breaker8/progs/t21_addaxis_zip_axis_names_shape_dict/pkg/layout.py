from pkg.config import MESH

SIZES = dict(zip(MESH.axis_names, MESH.devices.shape))


def first_axis_size():
    return list(SIZES.values())[0]
