def factor():
    ns = {}
    exec('from pkg.config import MESH', ns)
    return ns['MESH'].devices.shape[0]
