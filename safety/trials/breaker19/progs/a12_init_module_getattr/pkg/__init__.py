def __getattr__(name):
    if name == 'MESH':
        from .config import MESH
        return MESH
    raise AttributeError(name)
