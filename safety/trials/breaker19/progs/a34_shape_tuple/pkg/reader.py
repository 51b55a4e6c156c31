from pkg.config import MESH

def factor():
    return MESH.shape_tuple[0][1]
