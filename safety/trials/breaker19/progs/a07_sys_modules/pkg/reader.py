import sys

def factor():
    return sys.modules['pkg.config'].MESH.devices.shape[0]
