

def factor():
    return __import__('pkg.config', fromlist=['MESH']).MESH.devices.shape[0]
