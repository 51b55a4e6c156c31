import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


class Block(nnx.Module):
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def forward(block: Block, v):
    return block(v)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    block = Block(2.0)
    result = nnx.vmap(forward, in_axes=(None, 0), spmd_axis_name='x')(block, x)
    reference = np.asarray(x) * 2.0
    return result, reference
