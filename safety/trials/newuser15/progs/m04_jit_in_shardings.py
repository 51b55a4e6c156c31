"""pjit-era jit with in_shardings naming 'data' inside the spmd vmapped function."""
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P, AxisType

MESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)
inner = jax.jit(lambda b: b * 2.0, in_shardings=NamedSharding(MESH, P('data')), out_shardings=NamedSharding(MESH, P('data')))


def f(x):
    return inner(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    return jax.vmap(f, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
