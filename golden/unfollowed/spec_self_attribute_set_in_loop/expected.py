"""Issue 22: an instance's `__call__` reads `P(self.axis)` where `__init__` sets `self.axis` in a loop. At run
time it is 'x', the spmd axis, and JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs`;
spmdfix does not evaluate loops, so it gives no finding but an SPMD910 record at each entry naming it, its line,
and why (never silence). Its readable twin (`self.axis = axis` once, from an `__init__` default) is golden
rename/value_self_init_default."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


class Layer:
    def __init__(self, names=('y', 'x')):
        for name in names:
            self.axis = name

    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(self.axis), out_specs=P(self.axis))(v)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    layer = Layer()
    result = jax.vmap(layer, spmd_axis_name='x')(x)
    reference = np.asarray(x) * 2.0
    return result, reference
