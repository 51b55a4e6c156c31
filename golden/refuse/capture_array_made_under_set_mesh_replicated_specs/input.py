"""breaker6 r16: under `jax.set_mesh` of an Explicit mesh, `bias = jnp.full((8,), 0.25)` (committed to the mesh by
JAX) is closed over by a shard_map body whose specs are all `P()`, under a vmap with `spmd_axis_name='data'` over a
batch placed on 'data'. JAX refuses it (`For primitive ..., context mesh ... should match the aval mesh`;
safety/trials/breaker6/measure_placed_capture_replicated_specs.py: also with `out_sharding=P('model')`, with
`jnp.ones(...) * 0.25`, under a plain vmap, and without a vmap: `Closing over inputs to shard_map where the input
is sharded on Explicit axes`). spmdfix read it as an unbatched array of all-replicated specs, whose exemption
(the batch placed on the Explicit spmd axis) dropped it: silent. SPMD003 now; lifting it is not measured."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"))


def main():
    x0 = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    with jax.set_mesh(mesh):
        bias = jnp.full((8,), 0.25)
        x = jax.device_put(jnp.asarray(x0), P("data", None))

        def layer(v):
            return jax.shard_map(lambda b: jnp.tanh(b) + bias, in_specs=P(), out_specs=P())(v)

        result = jax.jit(jax.vmap(layer, spmd_axis_name="data"))(x)
    return result, np.tanh(x0) + 0.25
