import jax
from ens.config import DATA, MODEL


def build_mesh():
    return jax.make_mesh((2, 4), (DATA, MODEL), axis_types=(jax.sharding.AxisType.Auto,) * 2)


MESH = build_mesh()
