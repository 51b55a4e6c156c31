

def factor():
    from pkg.config import MESH
    return MESH.devices.shape[0]
