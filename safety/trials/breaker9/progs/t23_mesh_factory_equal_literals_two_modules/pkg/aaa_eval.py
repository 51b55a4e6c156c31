from pkg.config import make_mesh

EVAL_MESH = make_mesh((2, 4), ("data", "model"))
