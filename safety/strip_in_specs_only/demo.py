"""Original: in/out P('x'), check_vma=False, spmd 'x'. Applied: only in_specs stripped to P(None); out_specs still P('x')."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    return v * 2.0 + 1.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(None), out_specs=P('x'), check_vma=False)(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
