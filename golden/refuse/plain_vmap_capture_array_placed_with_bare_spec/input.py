"""breaker6 r15: under `jax.set_mesh` of an Explicit mesh, `table = jax.device_put(w, P('model'))` (a bare
PartitionSpec: placed on the context mesh) is closed over by a shard_map body under a jitted plain vmap over a
batch placed on 'data'. JAX refuses it (`For primitive mul, context mesh ... should match the aval mesh`;
safety/trials/breaker6/measure_placed_bare_spec_capture.py: also `P()`, under `spmd_axis_name`, and without a
vmap). Only `device_put(w, NamedSharding(mesh, ...))` was read as placed: silent. SPMD003 now; lifting it is not
measured: nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"))


def main():
    w0 = np.linspace(0.5, 1.5, 8, dtype=np.float32)
    x0 = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    with jax.set_mesh(mesh):
        table = jax.device_put(jnp.asarray(w0), P("model"))
        x = jax.device_put(jnp.asarray(x0), P("data"))

        def row(v):
            return jax.shard_map(lambda b: b * table, in_specs=P(), out_specs=P())(v)

        result = jax.jit(jax.vmap(row))(x)
    return result, x0 * w0
