import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((1, 2, 4), ('batch', 'x', 'y'), axis_types=(AxisType.Auto,) * 3)


def body(v):
    return v - v.mean()


@jax.jit
def normalize(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def main():
    x = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    result = jax.vmap(normalize, spmd_axis_name=('x', 'batch'))(x)
    a = np.asarray(x).reshape(8, 4, 2)
    reference = (a - a.mean(axis=2, keepdims=True)).reshape(8, 8)
    return result, reference
