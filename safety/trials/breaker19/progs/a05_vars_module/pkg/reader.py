from pkg import config

def factor():
    return vars(config)['MESH'].devices.shape[0]
