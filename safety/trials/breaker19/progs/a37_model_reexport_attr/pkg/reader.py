from pkg import model

def factor():
    return model.MESH.devices.shape[0]
