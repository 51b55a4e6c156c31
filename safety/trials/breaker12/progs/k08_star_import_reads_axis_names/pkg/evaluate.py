from pkg.config import *

MODEL_AXIS = MESH.axis_names[1]
