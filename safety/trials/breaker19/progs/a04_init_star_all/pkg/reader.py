from pkg import MESH

def factor():
    return MESH.devices.shape[0]
