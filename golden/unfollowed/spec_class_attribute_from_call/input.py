"""Issue 22: an instance's `__call__` reads `P(self.AXIS)` where the class attribute `AXIS` is assigned the
result of a call spmdfix does not evaluate (`os.environ.get(...)`). At run time it is 'x', the spmd axis, and
JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs`; spmdfix cannot read the entry, so it gives
no finding but an SPMD910 record at each entry naming it, its line, and why (never silence). Its readable
twin, `AXIS = 'x'`, is golden rename/value_self_class_attribute (a finding, fixed)."""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


class Layer:
    AXIS = os.environ.get("SPMDFIX_GOLDEN_LAYER_AXIS", "x")

    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(v)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    layer = Layer()
    result = jax.vmap(layer, spmd_axis_name='x')(x)
    reference = np.asarray(x) * 2.0
    return result, reference
