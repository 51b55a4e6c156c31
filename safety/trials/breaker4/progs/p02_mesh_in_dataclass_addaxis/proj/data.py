from proj.config import CFG


def global_batch():
    dp, mp = CFG.mesh.devices.shape
    return dp * CFG.per_device_batch * 4
