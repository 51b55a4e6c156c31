"""Which calls keep running when add-axis is applied on an Explicit mesh (the `jax.make_mesh` default).

Run: `python safety/measurements/add_axis_explicit_calls.py`. The program: a shard_map over
`jax.make_mesh((2, 4), ('x', 'y'))` with in/out specs `P('x')` under `jax.vmap(..., spmd_axis_name='x')`, and the
same program after add-axis (`make_mesh((1, 2, 4), ('batch', 'x', 'y'))`, `spmd_axis_name='batch'`). Each is
called eagerly and under `jax.jit`, with the (8, 8) input placed by `jax.device_put` in several ways; the line
prints `ok`, `DIFFERS` or the error. docs/safety.md records the outcome.
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

PLACEMENTS = (P(None, "x"), P("x", None), P("y", "x"), P("x", "y"), P(None, None), P("y", None))


def _run(name, fn, reference) -> None:
    try:
        out = fn()
        print(f"{name:48} {'ok' if np.allclose(np.asarray(out), reference) else 'DIFFERS'}")
    except Exception as err:  # noqa: BLE001 - the failure is the measurement
        print(f"{name:48} raises {type(err).__name__}: {str(err).splitlines()[0][:100]}")


def main() -> None:
    print(f"jax {jax.__version__}, {len(jax.devices())} devices")
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    reference = np.asarray(xs) * 2 + 1
    for label, shape, names, spmd in (
        ("before", (2, 4), ("x", "y"), "x"),
        ("after add-axis", (1, 2, 4), ("batch", "x", "y"), "batch"),
    ):
        mesh = jax.make_mesh(shape, names)

        def layer(x, mesh=mesh):
            return jax.shard_map(lambda v: v * 2.0 + 1.0, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)

        mapped = jax.vmap(layer, spmd_axis_name=spmd)
        for place in PLACEMENTS:
            placed = jax.device_put(xs, NamedSharding(mesh, place))
            _run(f"{label}, eager, placed {place}", lambda p=placed: mapped(p), reference)
            _run(f"{label}, jit, placed {place}", lambda p=placed: jax.jit(mapped)(p), reference)


if __name__ == "__main__":
    main()
