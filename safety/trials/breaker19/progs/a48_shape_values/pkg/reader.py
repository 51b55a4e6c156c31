from pkg.config import MESH

def factor():
    return list(MESH.shape.values())[0]
