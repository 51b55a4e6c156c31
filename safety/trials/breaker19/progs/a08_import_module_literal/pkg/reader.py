import importlib

def factor():
    return importlib.import_module('pkg.config').MESH.devices.shape[0]
