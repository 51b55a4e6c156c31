from pkg import config

def factor():
    return config.__dict__['MESH'].devices.shape[0]
