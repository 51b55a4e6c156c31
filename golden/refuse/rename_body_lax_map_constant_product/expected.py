import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def body(b):
    scale = jnp.linspace(0.5, 1.5, 8)
    return jax.lax.map(lambda r: r * scale, b)


def block(v):
    return jax.shard_map(body, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(8 * 4 * 8, dtype=jnp.float32).reshape(8, 4, 8) / 10.0
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * np.linspace(0.5, 1.5, 8, dtype=np.float32)
    return result, reference
