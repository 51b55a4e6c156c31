"""Two meshes in one module: the plain vmap's batch is placed on the Explicit `data_mesh`, the shard_map runs on
an Auto mesh of the same axes and closes over the batched `w` (in_specs=P()). JAX refuses it (`Closing over
inputs to shard_map where the input is sharded on Explicit axes`; without the capture it runs; safety/measurements/plain_vmap_placed_spellings.py, part 4):
SPMD003. lift-captures is unsafe (measured only on the placement's mesh): nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

data_mesh = jax.make_mesh((2, 4), ('x', 'y'))
model_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))


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
