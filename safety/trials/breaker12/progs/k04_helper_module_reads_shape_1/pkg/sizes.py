from pkg import config


def model_size():
    return config.MESH.devices.shape[1]
