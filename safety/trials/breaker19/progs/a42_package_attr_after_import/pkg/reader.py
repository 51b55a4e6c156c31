import pkg.model

def factor():
    return pkg.config.MESH.devices.shape[0]
