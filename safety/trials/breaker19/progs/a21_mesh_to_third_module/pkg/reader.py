from pkg import config
from pkg.util import groups

def factor():
    return groups(config.MESH)
