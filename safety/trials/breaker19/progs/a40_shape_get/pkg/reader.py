from pkg.config import MESH

def factor():
    return 2 * MESH.shape.get('batch', 1)
