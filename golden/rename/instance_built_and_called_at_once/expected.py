"""A layer built and called at once in the vmapped function (`Layer()(x)`), its `__call__` applying a shard_map
whose specs name the vmap's spmd axis through a class attribute.

Building the instance runs `__init__` (none here); calling it runs `__call__`, whose specs name `'data'`: JAX
raises `vmap spmd_axis_name cannot appear in shard_map in_specs`. Reading the construction as running only
`__init__` left the call of the instance unread: 'All checks passed!' (newuser9's change, merged at stop 38).
"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class Layer:
    AXIS = 'data'

    def __call__(self, x):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(x)


def block(x):
    return Layer()(x)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    return jax.vmap(block, spmd_axis_name='model')(xs), xs * 2.0
