import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType

DATA = 'x'

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def body(v):
    return jnp.exp(v)


def apply(x):
    spec = jax.sharding.PartitionSpec('y', 'x')
    return jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec)(x)


def main():
    x = jnp.linspace(-1.0, 1.0, 4 * 8 * 4, dtype=jnp.float32).reshape(4, 8, 4)
    result = jax.vmap(apply, spmd_axis_name=DATA)(x)
    reference = np.exp(np.asarray(x))
    return result, reference
