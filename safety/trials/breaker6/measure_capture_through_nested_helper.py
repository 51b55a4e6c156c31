"""breaker6 r45: a shard_map body that calls a function of the same enclosing function closing over a value the
vmap with `spmd_axis_name` batches (`def gate(v): return jax.nn.sigmoid(v * scale)`, `def body(b): return b *
gate(b)`): does JAX fail as on a read in the body itself, and does dropping spmd_axis_name (a plain vmap, Auto mesh)
run and match?

Run: python measure_capture_through_nested_helper.py (jax 0.10.2, CPU, 8 devices). Measured 2026-12-06: `read in
the body` and `read in a helper the body calls` (also two helpers deep) FAIL with `AssertionError:
ManualAxisType(...)`; the plain vmap runs and matches for all three."""
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, PartitionSpec as P  # noqa: E402

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def in_body(x, scale):
    return jax.shard_map(lambda b: b * jax.nn.sigmoid(b * scale), mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


def in_helper(x, scale):
    def gate(v):
        return jax.nn.sigmoid(v * scale)

    def body(b):
        return b * gate(b)

    return jax.shard_map(body, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


def two_deep(x, scale):
    def inner(v):
        return v * scale

    def gate(v):
        return jax.nn.sigmoid(inner(v))

    return jax.shard_map(lambda b: b * gate(b), mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


xn = np.linspace(-1, 1, 32, dtype=np.float32).reshape(4, 8)
sn = np.array([0.5, 1.0, 1.5, 2.0], dtype=np.float32)
ref = xn / (1 + np.exp(-xn * sn[:, None]))
for fn in (in_body, in_helper, two_deep):
    for name, kw in (("spmd_axis_name='data'", {"spmd_axis_name": "data"}), ("plain vmap", {})):
        try:
            out = jax.vmap(fn, **kw)(xn, sn)
            print(f"{fn.__name__}, {name}: runs, {'match' if np.allclose(out, ref, atol=1e-5) else 'mismatch'}")
        except Exception as e:  # noqa: BLE001
            print(f"{fn.__name__}, {name}: FAIL {type(e).__name__}: {str(e)[:90]}")
