"""A class-based layer applies `jax.shard_map(self._block, ...)`; the method body reads `self.scale`, which a
method traced under the vmap (`prepare`) sets from the batched input. The instance itself is not mapped
(`jax.vmap(layer, ...)`), yet the value the body closes over is batched: JAX raises ManualAxisType once the
spec collision is gone. So rename, add-axis and strip stay unsafe (each would leave that capture); dropping
spmd_axis_name runs on this Auto mesh."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


class Layer:
    def __init__(self):
        self.scale = 1.0

    def prepare(self, x):
        self.scale = x.mean()

    def _block(self, v):
        return v * self.scale

    def __call__(self, x):
        self.prepare(x)
        return jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    layer = Layer()
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    a = np.asarray(xs)
    reference = a * a.mean(axis=1, keepdims=True)
    return result, reference
