"""flax.linen.vmap of a Module defined here; its __call__ runs a shard_map whose specs name the spmd axis."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        scale = self.param('scale', nn.initializers.ones, (8,))
        return jax.shard_map(
            lambda v, s: v * s + 1.0, mesh=mesh, in_specs=(P('x'), P('x')), out_specs=P('x')
        )(x, scale)


VBlock = nn.vmap(
    Block,
    variable_axes={'params': None},
    split_rngs={'params': False},
    in_axes=0,
    out_axes=0,
)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    model = VBlock()
    variables = model.init(jax.random.key(0), xs)
    result = model.apply(variables, xs)
    reference = np.asarray(xs) + 1.0
    return result, reference
