from pkg.config import make_mesh

EVAL_MESH = make_mesh()
DATA_SIZE = EVAL_MESH.devices.shape[0]
