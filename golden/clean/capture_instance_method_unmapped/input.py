import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


class Block:
    def apply(self, x, w):
        def body(b):
            return b * w
        return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = (jnp.arange(64, dtype=jnp.float32).reshape(8, 8) - 21.0) / 16.0
    w = jnp.float32(1.5)
    blk = Block()
    result = jax.vmap(blk.apply, in_axes=(0, None), spmd_axis_name='y')(xs, w)
    reference = np.asarray(xs) * 1.5
    return result, reference
