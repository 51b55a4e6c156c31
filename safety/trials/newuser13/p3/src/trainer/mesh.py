import jax

DATA, MODEL = "data", "model"
MESH = jax.make_mesh((2, 4), (DATA, MODEL), axis_types=(jax.sharding.AxisType.Auto,) * 2)
