import pkg.config as c

def factor():
    return c.MESH.devices.shape[0]
