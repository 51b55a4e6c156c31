import pydoc

def factor():
    return pydoc.locate('pkg.config.MESH').devices.shape[0]
