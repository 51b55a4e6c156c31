"""newuser7 step 7: an spmd vmap over 'data' reaching a shard_map whose in_specs name 'data', on a mesh of
`jax.make_mesh` (Explicit axes), the input left unplaced: JAX refuses the placement first (`in_specs passed to
shard_map: P('data', None) does not match the specs of the input`), not with the collision's error
(safety/trials/newuser7/measure_explicit_collision.py). The message says so now (it named the collision's error
alone). drop-spmd-axis is not offered on an Explicit mesh (a plain vmap fails there too)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

MESH = jax.make_mesh((2, 4), ("data", "model"))


def block(x):
    return jax.shard_map(lambda b: jnp.tanh(b), mesh=MESH, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    xs = np.linspace(-1, 1, 4 * 8, dtype=np.float32).reshape(4, 8)
    return jax.vmap(block, spmd_axis_name="data")(xs), np.tanh(xs)
