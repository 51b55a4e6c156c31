"""A partial-manual shard_map (`axis_names={'x'}`) under a vmap over 'y': 'y' is not manual there (SPMD008, no
spec names it). add-axis appends the new axis to `axis_names` too."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))


def layer(v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x', 'batch'})(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.jit(jax.vmap(layer, spmd_axis_name='batch'))(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
