import jax

DATA = "data"
MODEL = "model"
MESH = jax.make_mesh((2, 4), (DATA, MODEL))
