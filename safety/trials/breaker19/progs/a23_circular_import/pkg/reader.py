from pkg import config

def factor():
    return config.MESH.devices.shape[0]
