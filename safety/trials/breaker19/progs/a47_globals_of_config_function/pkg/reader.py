from pkg.config import build

def factor():
    return build.__globals__['MESH'].devices.shape[0]
