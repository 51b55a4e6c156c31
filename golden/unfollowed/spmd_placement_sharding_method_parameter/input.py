"""Issue 22: a vmap with `spmd_axis_name` over an input placed with `jax.device_put` whose sharding is a
parameter of a method (spmdfix does not read methods' callers), reaching a `check_vma=False` shard_map eagerly.
At run time the batch is placed on the Explicit spmd axis 'x', and JAX raises `shard_map out_specs argument
must refer to an axis marked as manual` (SPMD008, which needs that placement); spmdfix cannot read the
placement, so it gives no finding but an SPMD910 record at the sharding naming it, its line, and why (never
silence). Its readable twin is golden refuse/explicit_check_vma_false_eager."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False)(x)


class Runner:
    def run(self, xs, sharding):
        placed = jax.device_put(xs, sharding)
        return jax.vmap(block, spmd_axis_name='x')(placed)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    result = Runner().run(jnp.asarray(xs0), NamedSharding(mesh, P('x', 'y')))
    return result, xs0 * 2.0 + 1.0
