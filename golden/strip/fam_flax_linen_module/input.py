"""nn.vmap of a parameter-free Module whose __call__ applies an elementwise shard_map over 'x'."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def relu2(v):
    return jnp.maximum(v, 0.0) * 2.0


class Act(nn.Module):
    def __call__(self, x):
        return jax.shard_map(relu2, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(x)


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8) - 50.0
    model = nn.vmap(Act, variable_axes={}, split_rngs={}, spmd_axis_name='x')()
    result = model.apply({}, xs)
    reference = np.maximum(np.asarray(xs), 0.0) * 2.0
    return result, reference
