from pkg.config import MESH

def factor():
    return len(MESH.axis_names)
