"""Issue 22: `spmd_axis_name` read from an attribute that `__init__` assigns a literal ('x'), which the
shard_map's specs name: JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs` (SPMD001/SPMD002,
resolved through `self`). Its unreadable twin (the attribute assigned from a conditional expression) is golden
unfollowed/spmd_axis_conditional_attribute: an SPMD910 record there."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def layer(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


class Pipeline:
    def __init__(self):
        self.stage_axis = 'x'

    def run(self, xs):
        return jax.vmap(layer, spmd_axis_name=self.stage_axis)(xs)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = Pipeline().run(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
