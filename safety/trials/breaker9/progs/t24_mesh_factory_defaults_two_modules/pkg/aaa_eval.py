from pkg.config import make_mesh

EVAL_MESH = make_mesh()
