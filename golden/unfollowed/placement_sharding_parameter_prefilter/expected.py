"""Issue 22, the prefilter: a plain vmap over an input placed with `jax.device_put` whose sharding comes in as a
parameter of a method (spmdfix does not read methods' callers), in a module that builds no sharding and
installs no mesh: the sharding is that of the rows a shard_map hands back (`rows_sharding`), on Explicit axis
'x' at run time. The vmap maps away Explicit axis 'x', which the shard_map's specs name, and JAX raises
`shard_map in_specs argument must refer to an axis marked as manual` (SPMD006); spmdfix cannot read the
placement, so it gives no finding but an SPMD910 record at the sharding (never silence). The prefilter dropped
this module before: it asked the text for a sharding class or a context mesh. Its twin with the sharding built
in the module is golden unfollowed/placement_sharding_method_parameter."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def rows_sharding(xs):
    """The sharding of `xs` split by rows over mesh axis 'x': that of a shard_map's output whose body keeps each
    device's rows (a preprocessing stage's output, as a data loader hands it over)."""
    n = xs.shape[0] // mesh.shape['x']

    def own_rows(b):
        return jax.lax.dynamic_slice_in_dim(b, jax.lax.axis_index('x') * n, n)

    return jax.shard_map(own_rows, mesh=mesh, in_specs=P(), out_specs=P('x'))(xs).sharding


class Runner:
    def run(self, xs, sharding):
        placed = jax.device_put(xs, sharding)
        return jax.vmap(block)(placed)


def main():
    xs0 = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    xs = jnp.asarray(xs0)
    result = Runner().run(xs, rows_sharding(xs))
    return result, xs0 * 2.0
