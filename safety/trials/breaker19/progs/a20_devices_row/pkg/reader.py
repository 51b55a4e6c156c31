from pkg.config import MESH

def factor():
    return 8 // MESH.devices[0].size
