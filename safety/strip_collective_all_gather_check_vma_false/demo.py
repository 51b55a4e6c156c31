"""Original: in/out P('x'), body all_gather(v, 'x', tiled=True)[:n], check_vma=False. Applied anyway: strip -> P(None)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def first_block(v):
    return jax.lax.all_gather(v, 'x', tiled=True)[: v.shape[0]]


def layer(x):
    return jax.shard_map(first_block, mesh=mesh, in_specs=P(None), out_specs=P(None), check_vma=False)(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    x = np.asarray(xs)
    reference = np.concatenate([x[:, :4], x[:, :4]], axis=-1)  # every block becomes the row's first block
    return result, reference
