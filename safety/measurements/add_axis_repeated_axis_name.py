"""add-axis on a mesh helper whose axis names come from a parameter: another call passes the new axis's name.

Run: `python safety/measurements/add_axis_repeated_axis_name.py` (sets 8 virtual CPU devices itself; jax 0.10.2).
`build_mesh(dp, tp, first='data')` returns `Mesh(devs.reshape(dp, tp), (first, 'model'))`; add-axis edits it to
`Mesh(devs.reshape(1, dp, tp), ('batch', first, 'model'))`. Another caller, `build_mesh(4, 2, 'batch')`, then gets
the axis names ('batch', 'batch', 'model'). Printed for that caller's mesh, before and after the edit: whether the
mesh builds, its `shape`, a `device_put` on `P('batch')`, and a shard_map over it with `P('batch')` and a psum
over `'batch'` (uses on add-axis's allowlist). Outcome (docs/safety.md, "Helpers with arguments"): the mesh builds
(`shape` collapses to {'batch': 4, 'model': 2}), the device_put keeps its values, and the shard_map raises
`DuplicateSpecError`: add-axis is unsafe when an axis name of the mesh is a parameter of the function building it.
"""

from __future__ import annotations

from _outcome import show

import jax  # noqa: E402  (after _outcome, which sets the devices)
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

W = np.arange(16 * 8, dtype=np.float32).reshape(16, 8)


def before(dp, tp, first="data"):
    return Mesh(np.array(jax.devices()[: dp * tp]).reshape(dp, tp), (first, "model"))


def after(dp, tp, first="data"):
    return Mesh(np.array(jax.devices()[: dp * tp]).reshape(1, dp, tp), ("batch", first, "model"))


def _total(mesh):
    return jax.shard_map(lambda a: jax.lax.psum(a, "batch"), mesh=mesh, in_specs=P("batch"), out_specs=P())(W)


def main() -> None:
    print(f"jax {jax.__version__}, {len(jax.devices())} devices")
    for label, build in (("before", before), ("after add-axis", after)):
        mesh = build(4, 2, "batch")
        print(f"{label}: axis_names {mesh.axis_names}, shape {dict(mesh.shape)}")
        show(f"  {label}: device_put(W, NamedSharding(mesh, P('batch')))",
             lambda: jax.device_put(W, NamedSharding(mesh, P("batch"))), W)
        show(f"  {label}: shard_map(psum over 'batch', in_specs=P('batch'))",
             lambda: _total(mesh), W.reshape(4, 4, 8).sum(0))


if __name__ == "__main__":
    main()
