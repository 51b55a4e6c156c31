"""Issue 22: `spmd_axis_name` is a parameter of a method, whose callers spmdfix does not read (it evaluates the
calls of plain functions of the module, not of methods). At run time it is 'x', which the shard_map's specs
name, and JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs` (SPMD001); spmdfix gives no
finding but an SPMD910 record at `spmd_axis_name` naming it, its line, and why (never silence). A parameter of
a plain function whose value spmdfix reads (its default, no caller passing another) is golden
add-axis/value_spmd_parameter_default."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def layer(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


class Trainer:
    def step(self, xs, data_axis):
        return jax.vmap(layer, spmd_axis_name=data_axis)(xs)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = Trainer().step(xs, 'x')
    reference = np.asarray(xs) * 2.0
    return result, reference
