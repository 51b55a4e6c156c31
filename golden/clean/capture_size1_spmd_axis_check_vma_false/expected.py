"""A body closing over a value the spmd vmap batches, over a size-1 spmd axis with check_vma=False: it runs
and matches (no SPMD003)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(8, 1), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)


def main():
    xs = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws = np.linspace(1.0, 2.0, 8, dtype=np.float32)
    result = jax.vmap(block, in_axes=(0, 0), spmd_axis_name='y')(jnp.asarray(xs), jnp.asarray(ws))
    return result, (xs * 2.0 + 1.0) * ws[:, None]
