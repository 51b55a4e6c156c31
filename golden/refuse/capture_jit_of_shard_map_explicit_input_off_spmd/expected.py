"""A shard_map wrapped in `jax.jit` (`jax.jit(jax.shard_map(...))(x)`) whose body closes over `w`, a value the
spmd vmap batches, on an Explicit mesh, specs `P('y')`, the batch placed `P(None, 'y')` and `w` placed
`P(None)` (off the spmd axis 'x'): JAX refuses the capture (`Closing over inputs to shard_map where the input
is sharded on Explicit axes`), eager and under jit, any check_vma
(safety/measurements/capture_staged_explicit_placement.py): SPMD003. lift-captures does not edit a shard_map
applied through `jax.jit`, so no fix is offered."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def apply(x, w):
    body = lambda b: (b * 2.0 + 1.0) * w
    return jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y')))(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'y')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    result = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='x')(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
