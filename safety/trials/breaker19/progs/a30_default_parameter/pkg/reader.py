from pkg import config


def factor(m=config.MESH):
    return m.devices.shape[0]
