"""A plain jax.vmap over a batch placed on Explicit mesh axis 'x'; the shard_map it reaches is applied to the
bound method `self._block` of a class-based layer and names 'x' (SPMD006): the method body, read past its bound
`self`, is per-row, so the strip keeps its values."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


class Layer:
    def __init__(self):
        self.scale = 2.0

    def _block(self, v):
        return v * 2.0 + 1.0

    def __call__(self, x):
        return jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    xs = jax.device_put(xs, NamedSharding(mesh, P('x', None)))
    result = jax.vmap(Layer())(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
