"""nn.with_logical_constraint in a Linen module under nn.vmap(spmd_axis_name='data'), the rules in force mapping
'batch' to 'data': JAX raises SPMD005's error; which mesh axes the logical names become is decided at run time."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))
RULES = (('batch', 'data'), ('embed', None))


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.with_logical_constraint(x * 2.0 + 1.0, ('batch', 'embed'))


def main():
    xs = jnp.arange(4 * 8 * 8, dtype=jnp.float32).reshape(4, 8, 8)
    vblock = nn.vmap(Block, variable_axes={'params': None}, split_rngs={'params': False}, spmd_axis_name='data')
    with nn.logical_axis_rules(RULES), jax.set_mesh(mesh):
        result = vblock().apply({}, xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
