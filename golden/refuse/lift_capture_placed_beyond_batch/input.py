"""A shard_map body on an Explicit mesh closes over `w`, which the spmd vmap batches, with the batch placed on the
spmd axis 'y' but `w` also placed on 'x' beyond its batch dimension (`P('y', 'x')`): JAX fails (`For primitive
reduce_sum, context mesh ...`), so SPMD003 is reported (the Explicit-placed-batch exemption needs the captured input
placed on its batch dimension only), and lift-captures is unsafe: the lifted `P()` operand fails too
(`in_specs ... does not match the specs of the input`)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * jnp.sum(w)
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 64, dtype=np.float32).reshape(8, 8)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('y', 'x')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('y', 'x')))
    result = jax.vmap(block, in_axes=(0, 0), spmd_axis_name='y')(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0.sum(1)[:, None]
