from pkg import config

def factor():
    return len(dict(config.MESH.shape))
