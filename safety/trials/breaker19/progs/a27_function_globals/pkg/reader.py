from pkg.model import forward

def factor():
    return forward.__globals__['MESH'].devices.shape[0]
