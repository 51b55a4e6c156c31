"""A `jax.lax.map(..., batch_size=2)` between the spmd vmap (`'data'`) and a check_vma=True shard_map whose body
scales the block by the pmax over `'model'` of its maximum (`b * jax.lax.pmax(b.max(), 'model')`) and adds its
own sum (`+ jnp.sum(b)`): runs and matches, eager and under jit (measured on jax 0.10.2:
safety/measurements/spmd007_binary_with_reduced_collective.py: the block beside a scalar it reduces to, under a
collective or not), so no SPMD007. Beside a mean (`b + b.mean()`, a division by a constant) it fails
(golden/disable-check-vma/lax_map_body_block_plus_mean)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto, AxisType.Auto))


def head(x):
    def body(b):
        return b * jax.lax.pmax(b.max(), 'model') + jnp.sum(b)

    return jax.shard_map(body, mesh=mesh, in_specs=P('model'), out_specs=P('model'))(x)


def heads(x):
    return jax.lax.map(head, x, batch_size=2)


def main():
    xs = (np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) + 3.0) / 40.0
    result = jax.vmap(heads, spmd_axis_name='data')(xs)
    blocks = xs.reshape(4, 4, 4, 2)
    reference = blocks * xs.max(-1)[..., None, None] + blocks.sum(-1, keepdims=True)
    return result, reference.reshape(4, 4, 8)
