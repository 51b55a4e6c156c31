"""Two meshes in one module: the plain vmap's batch is placed on `data_mesh` ('x', 'y'), the shard_map runs on
`model_mesh` ('a', 'b') and closes over the batched `w`. JAX fails (with or without the capture: `in_specs ...
does not match the specs of the input`, `KeyError: 'x'`; with it under a jit on the way `Closing over inputs to
shard_map`; safety/measurements/plain_vmap_placed_spellings.py, part 4): SPMD003, its message naming the other mesh; lift-captures is unsafe (the program still
fails): nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

data_mesh = jax.make_mesh((2, 4), ('x', 'y'))
model_mesh = jax.make_mesh((2, 4), ('a', 'b'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=model_mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(data_mesh, P('x', None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(data_mesh, P('x')))
    result = jax.vmap(block)(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
