"""Which uses of a mesh keep their values when add-axis prepends a size-1 axis to it.

Run: `python safety/measurements/add_axis_mesh_uses.py` (sets 8 virtual CPU devices itself). For each use it
evaluates the same expression on the mesh before the fix (`Mesh(devices.reshape(2, 4), ('x', 'y'))`) and after
it (`Mesh(devices.reshape(1, 2, 4), ('batch', 'x', 'y'))`) and prints `kept`, `changed` or `raises` (with the
error). docs/safety.md records the outcome: `kept` uses are on add-axis's allowlist, the others make it unsafe.
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

XS = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)


def before() -> Mesh:
    return Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))


def after() -> Mesh:
    return Mesh(np.array(jax.devices()).reshape(1, 2, 4), ("batch", "x", "y"))


def _shard_map(mesh):
    f = jax.shard_map(lambda b: b * 2.0 + jax.lax.psum(b.sum(), "x"), mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return np.asarray(f(XS))


def _shard_map_partial_manual(mesh):
    f = jax.shard_map(lambda b: b + jax.lax.psum(1.0, "x"), mesh=mesh, in_specs=P("x"), out_specs=P("x"),
                      axis_names={"x"})
    return np.asarray(jax.jit(f)(XS))


def _named_sharding(mesh):
    placed = jax.device_put(XS, NamedSharding(mesh, P("x", "y")))
    return np.asarray(placed * 3.0), placed.sharding.spec, placed.addressable_shards[0].data.shape


def _jit_shardings(mesh):
    s = NamedSharding(mesh, P("x"))
    f = jax.jit(lambda v: v * 2.0, in_shardings=s, out_shardings=NamedSharding(mesh, P(None, "y")))
    out = f(XS)
    return np.asarray(out), out.addressable_shards[0].data.shape


def _set_mesh(mesh):
    with jax.set_mesh(mesh):
        f = jax.shard_map(lambda b: b * 2.0, in_specs=P("x"), out_specs=P("x"))
        return np.asarray(f(XS))


def _with_mesh(mesh):
    with mesh:
        f = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
        return np.asarray(f(XS))


def _constraint(mesh):
    f = jax.jit(lambda v: jax.lax.with_sharding_constraint(v * 2.0, NamedSharding(mesh, P("x"))))
    return np.asarray(f(XS))


def _in_context(mesh, read):
    with jax.set_mesh(mesh):
        return read()


USES = {
    # allowlist candidates
    "shard_map(..., mesh=mesh) called without a vmap": _shard_map,
    "shard_map(..., mesh=mesh, axis_names={'x'}) under jit": _shard_map_partial_manual,
    "NamedSharding(mesh, P('x', 'y')) with device_put": _named_sharding,
    "jax.jit(in_shardings=/out_shardings=NamedSharding(mesh, ...))": _jit_shardings,
    "jax.set_mesh(mesh) around a shard_map without mesh=": _set_mesh,
    "`with mesh:` around a shard_map": _with_mesh,
    "with_sharding_constraint(v, NamedSharding(mesh, P('x')))": _constraint,
    "mesh.size": lambda m: m.size,
    "mesh.shape['x']": lambda m: m.shape["x"],
    "mesh.shape['y']": lambda m: m.shape["y"],
    # reads whose values depend on the mesh's rank or layout
    "mesh.axis_names": lambda m: m.axis_names,
    "len(mesh.axis_names)": lambda m: len(m.axis_names),
    "len(mesh.shape)": lambda m: len(m.shape),
    "tuple(mesh.shape)  (iterating mesh.shape)": lambda m: tuple(m.shape),
    "tuple(mesh.shape.values())": lambda m: tuple(m.shape.values()),
    "mesh.axis_sizes": lambda m: m.axis_sizes,
    "mesh.devices.shape": lambda m: m.devices.shape,
    "mesh.devices.shape[0]": lambda m: m.devices.shape[0],
    "n_a, n_b = mesh.devices.shape": lambda m: (lambda a, b: (a, b))(*m.devices.shape),
    "mesh.devices.size": lambda m: m.devices.size,
    "get_abstract_mesh().axis_names under jax.set_mesh(mesh)": lambda m: _in_context(
        m, lambda: jax.sharding.get_abstract_mesh().axis_names),
    "get_abstract_mesh().shape['x'] under jax.set_mesh(mesh)": lambda m: _in_context(
        m, lambda: jax.sharding.get_abstract_mesh().shape["x"]),
    "NamedSharding(mesh, P(*mesh.axis_names)) with device_put": lambda m: np.asarray(
        jax.device_put(XS, NamedSharding(m, P(*m.axis_names)))),
}


def _value(fn, mesh):
    try:
        return "ok", fn(mesh)
    except Exception as err:  # noqa: BLE001 - the failure is the measurement
        return "raises", f"{type(err).__name__}: {str(err).splitlines()[0][:120]}"


def _same(a, b) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.shape(a) == np.shape(b) and np.allclose(a, b)
    return a == b


def main() -> None:
    print(f"jax {jax.__version__}, {len(jax.devices())} devices")
    for name, fn in USES.items():
        (s0, v0), (s1, v1) = _value(fn, before()), _value(fn, after())
        if s0 != "ok":
            outcome = f"raises before the fix too: {v0}"
        elif s1 != "ok":
            outcome = f"raises: {v1}"
        elif _same(v0, v1):
            outcome = "kept"
        else:
            outcome = f"changed: {v0!r:.60} -> {v1!r:.60}"
        print(f"{name:62} {outcome}")


if __name__ == "__main__":
    main()
