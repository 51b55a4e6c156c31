"""breaker6 r38: a plain `jax.vmap` bound to a name through `jax.jit` (`normalise = jax.jit(jax.vmap(f))`, module
level) or bound to a name and jitted where it is called (`jax.jit(normalise)(x)`), over an input placed on the
Explicit axis 'data', the body closing over a value the vmap batches (`scale = jnp.abs(v).max()`): does JAX refuse
it as it refuses `jax.vmap(f)(x)` (SPMD003 of a plain vmap over an Explicit placement)?

Run: python measure_named_plain_vmap_jit.py (jax 0.10.2, CPU, 8 devices). Measured 2026-12-06: all four FAIL with
`For primitive div, context mesh AbstractMesh(... axis_types=(Explicit, Manual)) should match the aval mesh`; the
same input unplaced runs and matches (the last row)."""
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

mesh = jax.make_mesh((2, 4), ("data", "model"))


def per_example(v):
    scale = jnp.abs(v).max()
    return jax.shard_map(lambda b: b / scale, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(v)


jitted_name = jax.jit(jax.vmap(per_example))
plain_name = jax.vmap(per_example)
xn = np.linspace(-1, 2, 32, dtype=np.float32).reshape(4, 8)
x = jax.device_put(jnp.asarray(xn), NamedSharding(mesh, P("data", None)))
ref = xn / np.abs(xn).max(-1, keepdims=True)
rows = {
    "name = jax.jit(jax.vmap(f)); name(x)": lambda: jitted_name(x),
    "name = jax.vmap(f); jax.jit(name)(x)": lambda: jax.jit(plain_name)(x),
    "name = jax.vmap(f); name(x)": lambda: plain_name(x),
    "jax.jit(jax.vmap(f))(x)": lambda: jax.jit(jax.vmap(per_example))(x),
    "name = jax.jit(jax.vmap(f)); name(unplaced)": lambda: jitted_name(jnp.asarray(xn)),
}
for name, run in rows.items():
    try:
        out = run()
        print(f"{name}: runs, {'match' if np.allclose(out, ref, atol=1e-5) else 'mismatch'}")
    except Exception as e:  # noqa: BLE001
        print(f"{name}: FAIL {type(e).__name__}: {str(e)[:110]}")
