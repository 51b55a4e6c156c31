"""The mesh has a size-1 'batch' axis for the vmap; the shard_map uses the data axes."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))


def body(v):
    return jnp.tanh(v)


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(x)


def main():
    xs = jnp.linspace(-2.0, 2.0, 3 * 4 * 8, dtype=jnp.float32).reshape(3, 4, 8)
    result = jax.vmap(layer, spmd_axis_name='batch')(xs)
    reference = np.tanh(np.asarray(xs))
    return result, reference
