"""A helper applying shard_map to the callable it is given (`apply_blocks(block, x)`), given a lambda closing over
`shift`, under a jitted plain vmap whose batch is placed `P('data', None)` on an Explicit mesh, specs `P()`: JAX
fails (`context mesh ... should match the aval mesh`; safety/measurements/helper_body_closure_other_module.py).
The body is a parameter, not resolved to a function: an SPMD910 record in the plain vmap's words (silent before:
the record was an spmd vmap's only)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"), axis_types=(AxisType.Explicit,) * 2)


def apply_blocks(block, x):
    return jax.shard_map(block, mesh=MESH, in_specs=P(), out_specs=P())(x)


def layer(x, shift):
    return apply_blocks(lambda b: jnp.tanh(b + shift), x)


def main():
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    shifts = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32)
    xp = jax.device_put(xs, NamedSharding(MESH, P("data", None)))
    sp = jax.device_put(shifts, NamedSharding(MESH, P("data")))
    return jax.jit(jax.vmap(layer))(xp, sp), np.tanh(xs + shifts[:, None])
