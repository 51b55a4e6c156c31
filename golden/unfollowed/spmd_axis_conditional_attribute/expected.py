"""Issue 22: `spmd_axis_name` read from an attribute that `__init__` assigns from a conditional expression (as a
pipeline layer picks its stage axis by a config field). At run time it is 'x', which the shard_map's specs name,
and JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs` (SPMD001); spmdfix cannot decide the
condition, so it gives no finding but an SPMD910 record at `spmd_axis_name` naming it, its line, and why (never
silence). Its readable twin (a literal assigned in `__init__`) is golden
add-axis/value_spmd_self_attribute."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def layer(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


class Pipeline:
    def __init__(self, auto_sharding=True):
        self.stage_axis = 'x' if auto_sharding else None

    def run(self, xs):
        return jax.vmap(layer, spmd_axis_name=self.stage_axis)(xs)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = Pipeline().run(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
