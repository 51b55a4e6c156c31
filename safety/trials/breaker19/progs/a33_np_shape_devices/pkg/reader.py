import numpy as np
from pkg.config import MESH

def factor():
    return np.shape(MESH.devices)[0]
