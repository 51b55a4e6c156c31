"""Original: golden/refuse/reshard_shared_spec_plain_vmap (a plain vmap over a batch placed on Explicit `'x'`, a
shard_map whose specs name `'x'`, and a `jax.sharding.reshard` of the shard_map's result whose spec, held in a
name another function uses, names `'x'`). Applied anyway: the strip of the shard_map's specs alone (fuzz seed
200100's output): the reshard still names the placed axis and JAX raises `DuplicateSpecError`."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
ROWS = P('x')


def body(b):
    return b * 2.0 + 1.0


def block(x):
    y = jax.shard_map(body, mesh=mesh, in_specs=P(None), out_specs=P(None))(x)
    return jax.sharding.reshard(y, ROWS)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P('x', None))
        result = jax.vmap(block)(xs)
    return result, xs0 * 2.0 + 1.0
