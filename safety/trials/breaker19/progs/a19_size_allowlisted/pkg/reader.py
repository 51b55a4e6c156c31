from pkg.config import MESH

def factor():
    return MESH.size // 4
