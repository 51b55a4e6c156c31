"""Issue 22: a plain vmap over an input placed with `jax.device_put` whose sharding comes in as a parameter
of a method (spmdfix does not read methods' callers). At run time it is `NamedSharding(mesh, P('x', None))` on
an Explicit mesh: the vmap maps away Explicit axis 'x', which the shard_map's specs name, and JAX raises
`shard_map in_specs argument must refer to an axis marked as manual` (SPMD006); spmdfix cannot read the
placement, so it gives no finding but an SPMD910 record at the sharding naming it, its line, and why (never
silence). Its readable twin (the sharding written at the placement) is golden
strip/fam_spmd006_make_mesh_eager."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


class Runner:
    def run(self, xs, sharding):
        placed = jax.device_put(xs, sharding)
        return jax.vmap(block)(placed)


def main():
    xs0 = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    result = Runner().run(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    return result, xs0 * 2.0
