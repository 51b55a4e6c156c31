import importlib

config = importlib.import_module("pkg.config")


def model_ways():
    return config.MESH.shape["model"]
