"""Fuzz seed 70430 (shrunk): a value the spmd vmap batches, bound to the shard_map body by a parameter default
(`def body(b, w=w)`) in a `@jax.jit` function, on the Explicit mesh `make_mesh((2, 4), ('x', 'y'))`, specs
naming the spmd axis 'x', the batch placed `P(None, 'x')` and `w` placed `P(None)`. JAX refuses the capture
first (`Closing over inputs to shard_map where the input is sharded on Explicit axes`), before the spec
collision: SPMD003 beside SPMD001/SPMD002, whose rename is unsafe on an Explicit mesh; lift-captures is not
offered for a default-bound value."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


@jax.jit
def block(x, w):
    def body(b, w=w):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def apply(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    result = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='x')(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
