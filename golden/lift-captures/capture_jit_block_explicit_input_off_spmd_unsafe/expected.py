"""A shard_map body closing over `w`, a value the spmd vmap batches, applied in a `@jax.jit` function on an
Explicit mesh, specs `P('y')`, the batch placed `P(None, 'y')` and `w` placed `P(None)` (off the spmd axis
'x'): JAX refuses the capture (`Closing over inputs to shard_map where the input is sharded on Explicit
axes`): SPMD003. lift-captures is unsafe (through `jax.checkpoint` called eagerly the lifted form still fails);
applied with --unsafe-fixes here, under `@jax.jit`, the lifted `P()` operand runs and matches
(safety/measurements/capture_staged_explicit_placement.py)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


@jax.jit
def block(x, w):
    def body(b, w):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=(P('y'), P()), out_specs=P('y'))(x, w)


def apply(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'y')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    result = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='x')(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
