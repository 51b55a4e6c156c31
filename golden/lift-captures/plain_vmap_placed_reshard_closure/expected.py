"""Fuzz seed 250076: a plain jax.vmap (no spmd_axis_name) whose batch is placed on the Explicit axis 'x' by
jax.sharding.reshard under jax.set_mesh reaches a shard_map (in_specs=P()) whose body closes over `w`, a value
the vmap batches: JAX fails (`For primitive mul, context mesh ... should match the aval mesh`), so SPMD003 is
reported; lift-captures makes w an operand with P() and the program runs
(safety/measurements/capture_plain_vmap_placed.py)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b, w):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=(P(), P()), out_specs=P())(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P('x', None))
        ws = jax.sharding.reshard(jnp.asarray(ws0), P('x'))
        result = jax.vmap(block, in_axes=(0, 0))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
