def groups(m):
    return m.devices.shape[0]
