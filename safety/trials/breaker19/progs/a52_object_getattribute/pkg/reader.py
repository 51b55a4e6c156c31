from pkg import config

def factor():
    return object.__getattribute__(config, 'MESH').devices.shape[0]
