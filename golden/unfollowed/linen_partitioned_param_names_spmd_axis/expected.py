"""A Linen module under nn.vmap(spmd_axis_name='data') whose parameter is annotated
`nn.with_partitioning(init, W_NAMES)` with W_NAMES naming 'data': under `jax.set_mesh` JAX raises SPMD005's error
(without a mesh it runs); spmdfix said nothing (newuser9)."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))
W_NAMES = ('data', None)


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        w = self.param('w', nn.with_partitioning(nn.initializers.ones, W_NAMES), (8, 16))
        return x @ w


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    vblock = nn.vmap(
        Block, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=None, axis_size=2,
        spmd_axis_name='data', metadata_params={nn.PARTITION_NAME: None},
    )
    with jax.set_mesh(mesh):
        variables = vblock().init(jax.random.key(0), xs)
        result = vblock().apply(variables, xs)
    reference = np.stack([np.asarray(xs) @ np.ones((8, 16), np.float32)] * 2)
    return result, reference
