import inspect
from pkg.model import forward

def factor():
    return inspect.getmodule(forward).MESH.devices.shape[0]
