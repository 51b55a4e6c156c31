"""breaker6 r15: an array placed with a bare PartitionSpec under `jax.set_mesh` of an Explicit mesh
(`jax.device_put(w, P('model'))`, also `P()`), closed over by a shard_map body: does JAX refuse it as it refuses
`jax.device_put(w, NamedSharding(mesh, P('model')))`, under a plain vmap over a batch placed on 'data', under a
vmap with `spmd_axis_name='data'`, and without a vmap? And placed before `jax.set_mesh` with a NamedSharding
(the control)?

Run: python measure_placed_bare_spec_capture.py (jax 0.10.2, CPU, 8 devices). Measured 2026-12-06: every row with
a placed capture FAILS (`For primitive mul, context mesh ... should match the aval mesh` under both vmaps,
`Closing over inputs to shard_map where the input is sharded on Explicit axes` without a vmap); the unplaced
numpy capture (last row) runs and matches."""
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

mesh = jax.make_mesh((2, 4), ("data", "model"))
wn = np.linspace(0.5, 1.5, 8, dtype=np.float32)
xn = np.linspace(-1, 1, 32, dtype=np.float32).reshape(4, 8)


def run(name, fn, ref=xn * wn):
    try:
        out = fn()
        print(f"{name}: runs, {'match' if np.allclose(out, ref, atol=1e-5) else 'mismatch'}")
    except Exception as e:  # noqa: BLE001
        print(f"{name}: FAIL {type(e).__name__}: {str(e)[:100]}")


with jax.set_mesh(mesh):
    x = jax.device_put(jnp.asarray(xn), P("data"))
    x0 = jax.device_put(jnp.asarray(xn[0]), P())
    captures = {
        "device_put(w, P('model'))": jax.device_put(jnp.asarray(wn), P("model")),
        "device_put(w, P())": jax.device_put(jnp.asarray(wn), P()),
        "device_put(w, NamedSharding(mesh, P('model')))": jax.device_put(jnp.asarray(wn), NamedSharding(mesh, P("model"))),
        "numpy w (unplaced)": wn,
    }
    for what, w in captures.items():
        def row(v, w=w):
            return jax.shard_map(lambda b: b * w, in_specs=P(), out_specs=P())(v)

        run(f"{what}: jit(plain vmap), batch on 'data'", lambda: jax.jit(jax.vmap(row))(x))
        run(f"{what}: jit(vmap(spmd_axis_name='data'))", lambda: jax.jit(jax.vmap(row, spmd_axis_name="data"))(x))
        run(f"{what}: no vmap", lambda: row(x0), xn[0] * wn)
