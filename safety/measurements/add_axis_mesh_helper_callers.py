"""add-axis on a mesh built by a helper that takes its shape as arguments: what the helper's other callers see.

Run: `python safety/measurements/add_axis_mesh_helper_callers.py` (sets 8 virtual CPU devices itself; jax 0.10.2).
`build_mesh(dp, tp)` returns `jax.make_mesh((dp, tp), ('data', 'model'))` (Auto axes); add-axis edits the helper
to `make_mesh((1, dp, tp), ('batch', 'data', 'model'))`, so every caller's mesh changes. Caller A
(`build_mesh(2, 4)`) feeds the spmd vmap (`spmd_axis_name='data'` -> `'batch'`); caller B (`build_mesh(4, 2)`)
feeds uses of the mesh allowlist (docs/safety.md) and two uses off it. Each line prints the use, then `kept`,
`changed` or `raises`. docs/safety.md records the outcome: the other callers' meshes are uses of the edited
mesh like any other, judged by the same allowlist.
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P

XS = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)


def before(dp, tp):
    return jax.make_mesh((dp, tp), ("data", "model"), axis_types=(AxisType.Auto,) * 2)


def after(dp, tp):
    return jax.make_mesh((1, dp, tp), ("batch", "data", "model"), axis_types=(AxisType.Auto,) * 3)


def _caller_a(build, spmd):
    mesh = build(2, 4)
    layer = lambda v: jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(v)
    return np.asarray(jax.vmap(layer, spmd_axis_name=spmd)(XS))


USES = {
    "B: shard_map(mesh=other) with a psum over 'data', no vmap": lambda m: np.asarray(jax.shard_map(
        lambda b: b + jax.lax.psum(b.sum(), "data"), mesh=m, in_specs=P("data"), out_specs=P("data"))(XS)),
    "B: device_put(x, NamedSharding(other, P('data', 'model')))": lambda m: (
        np.asarray(jax.device_put(XS, NamedSharding(m, P("data", "model")))),
        jax.device_put(XS, NamedSharding(m, P("data", "model"))).addressable_shards[0].data.shape),
    "B: other.shape['data']": lambda m: m.shape["data"],
    "B: other.devices.shape (off the allowlist)": lambda m: m.devices.shape,
    "B: len(other.axis_names) (off the allowlist)": lambda m: len(m.axis_names),
}


def _same(a, b) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.shape(a) == np.shape(b) and np.allclose(a, b)
    return a == b


def _show(old, new) -> str:
    """`: old -> new` for plain values (ints, shapes), nothing for arrays."""
    plain = lambda v: isinstance(v, (int, str)) or (isinstance(v, tuple) and all(isinstance(x, int) for x in v))
    return f": {old} -> {new}" if plain(old) and plain(new) else ""


def main() -> None:
    print(f"jax {jax.__version__}, {len(jax.devices())} devices")
    for label, fn in (("A before (spmd 'data')", lambda: _caller_a(before, "data")),
                      ("A after add-axis (spmd 'batch')", lambda: _caller_a(after, "batch"))):
        try:
            out = fn()
            print(f"{label:60} {'ok' if np.allclose(out, np.asarray(XS) * 2.0) else 'DIFFERS'}")
        except Exception as err:  # noqa: BLE001 - the failure is the measurement
            print(f"{label:60} raises {type(err).__name__}: {str(err).splitlines()[0][:90]}")
    for label, use in USES.items():
        try:
            old, new = use(before(4, 2)), use(after(4, 2))
            print(f"{label:60} {'kept' if _same(old, new) else 'changed'}{_show(old, new)}")
        except Exception as err:  # noqa: BLE001
            print(f"{label:60} raises {type(err).__name__}: {str(err).splitlines()[0][:90]}")


if __name__ == "__main__":
    main()
