

def factor():
    import pkg.config as cfg
    return cfg.MESH.devices.shape[0]
