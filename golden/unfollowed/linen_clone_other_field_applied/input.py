import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

# `Layer().clone(AXIS='data')`: flax's `clone` (a method of the library base) copies the module with a field
# of its own; the class of the copy is not known to the analysis, whose `apply` runs `Layer.__call__` with
# AXIS 'data' (breaker9 t40: JAX raised the SPMD001 error and spmdfix printed "All checks passed!").
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class Layer(nn.Module):
    AXIS: str = 'model'

    def __call__(self, x):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    layer = Layer().clone(AXIS='data')
    return jax.vmap(lambda x: layer.apply({}, x), spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
