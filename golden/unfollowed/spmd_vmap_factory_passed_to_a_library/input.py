"""jax_privacy's clipping.py spelling: `functools.partial(jax.vmap, spmd_axis_name=...)` handed to optax's
`micro_vmap`, which applies it to the function it batches (here the shard_map'd layer, whose in_specs name
'x'). The analysis does not follow a factory into a library: before, "All checks passed!" while JAX raised
`vmap spmd_axis_name cannot appear in shard_map in_specs`. Now an SPMD910 record at the factory's
`spmd_axis_name`, naming the call it is passed to."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def double(b):
    return b * 2.0


layer = jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    per_example = optax.microbatching.micro_vmap(
        layer, in_axes=0, microbatch_size=2, vmap_fn=functools.partial(jax.vmap, spmd_axis_name='x')
    )
    result = per_example(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
