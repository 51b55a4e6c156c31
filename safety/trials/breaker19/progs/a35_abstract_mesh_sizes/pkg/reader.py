from pkg.config import MESH

def factor():
    return MESH.abstract_mesh.axis_sizes[0]
