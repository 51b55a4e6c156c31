"""breaker6 r16: an array made under `jax.set_mesh` of an Explicit mesh, closed over by a shard_map body whose specs
are all `P()`: does JAX refuse it (as it refuses a capture under specs naming a mesh axis), under a vmap with
`spmd_axis_name`, a plain vmap, and without a vmap?

Run: XLA_FLAGS=--xla_force_host_platform_device_count=8 python measure_placed_capture_replicated_specs.py
(jax 0.10.2, CPU). Every row prints FAIL (measured 2026-12-06): `For primitive ..., context mesh AbstractMesh(...
axis_types=(Explicit, Manual)) should match the aval mesh` under both vmaps (batch placed on 'data'), and
`NotImplementedError: Closing over inputs to shard_map where the input is sharded on Explicit axes` without a
vmap and under a plain vmap of an input placed `P()`."""
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

mesh = jax.make_mesh((2, 4), ("data", "model"))


def run(name, fn):
    try:
        fn()
        print(f"{name}: runs")
    except Exception as e:  # noqa: BLE001
        print(f"{name}: FAIL {type(e).__name__}: {str(e)[:140]}")


with jax.set_mesh(mesh):
    x = jax.device_put(jnp.linspace(-1, 1, 32).reshape(4, 8), P("data", None))
    x_repl = jax.device_put(jnp.linspace(-1, 1, 32).reshape(4, 8), P())
    x0 = jax.device_put(jnp.linspace(-1, 1, 8), P())
    makers = {
        "jnp.full(..., out_sharding=P('model'))": lambda: jnp.full((8,), 0.25, out_sharding=P("model")),
        "jnp.full(...)": lambda: jnp.full((8,), 0.25),
        "jnp.ones(...) * 0.25": lambda: jnp.ones((8,)) * 0.25,
        "jnp.ones(..., out_sharding=P())": lambda: jnp.ones((8,), out_sharding=P()),
    }
    for what, make in makers.items():
        bias = make()

        def layer(v, bias=bias):
            return jax.shard_map(lambda b: jnp.tanh(b) + bias, in_specs=P(), out_specs=P())(v)

        run(f"{what}: jit(vmap(spmd_axis_name='data')), batch on 'data'", lambda: jax.jit(jax.vmap(layer, spmd_axis_name="data"))(x))
        run(f"{what}: vmap(spmd_axis_name='data') eager", lambda: jax.vmap(layer, spmd_axis_name="data")(x))
        run(f"{what}: jit(plain vmap), batch on 'data'", lambda: jax.jit(jax.vmap(layer))(x))
        run(f"{what}: plain vmap eager, batch replicated", lambda: jax.vmap(layer)(x_repl))
        run(f"{what}: no vmap, jit", lambda: jax.jit(layer)(x0))
