import pkgutil

def factor():
    return pkgutil.resolve_name('pkg.config:MESH').devices.shape[0]
