from pkg.config import MESH

EVAL_BATCH = 4 * MESH.shape["data"]
DEVICES = MESH.size
