"""A class-based layer applies `jax.shard_map(self._block, ...)` with all-replicated specs; the method body
multiplies the block by `self.w`, an unbatched array of the instance. Under the spmd vmap with check_vma on JAX
raises ManualAxisType (the array's rank is not below the block's); what `self.w` holds is not read, so it is an
SPMD910 record (main read no body and said "All checks passed!")."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


class Layer:
    def __init__(self):
        self.w = jnp.arange(8.0, dtype=jnp.float32)

    def _block(self, v):
        return v * self.w

    def __call__(self, x):
        return jax.shard_map(self._block, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    layer = Layer()
    xs = jnp.ones((4, 8), dtype=jnp.float32)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.ones((4, 8)) * np.arange(8.0)
    return result, reference
