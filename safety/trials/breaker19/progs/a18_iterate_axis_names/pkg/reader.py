from pkg.config import MESH

def factor():
    n = 0
    for _ in MESH.axis_names:
        n += 1
    return n
