"""Two meshes in one module made alike (`jax.make_mesh((2, 4), ('x', 'y'))` twice): the batch placed on one,
the shard_map on the other, closing over the batched `w`. JAX fails as with one mesh (`For primitive mul, context
mesh ...`; safety/measurements/plain_vmap_placed_spellings.py, part 4): SPMD003; the lifted operand runs (part 4, `lifted`)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

data_mesh = jax.make_mesh((2, 4), ('x', 'y'))
model_mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b, w):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=model_mesh, in_specs=(P(), P()), out_specs=P())(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(data_mesh, P('x', None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(data_mesh, P('x')))
    result = jax.vmap(block)(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
