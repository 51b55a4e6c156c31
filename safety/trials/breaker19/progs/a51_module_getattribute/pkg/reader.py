from pkg import config

def factor():
    return config.__getattribute__('MESH').devices.shape[0]
