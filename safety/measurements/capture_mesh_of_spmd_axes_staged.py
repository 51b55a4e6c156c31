"""Fuzz seed 100917: the capture of `capture_mesh_of_spmd_axes.py` (a `P()` body closing over `x.mean() + 2.0`
on an Explicit `(2, 4)` mesh whose axes are both spmd axes, `spmd_axis_name=('x', 'y')`, the batch placed on
them) reached through a staging loop instead of a jit, the vmap called eagerly.

Run: `python safety/measurements/capture_mesh_of_spmd_axes_staged.py` (8 virtual CPU devices; jax 0.10.2).

    def block(x):
        m = x.mean() + 2.0
        return shard_map(lambda b: (b * 2.0 + 1.0) * m, mesh=mesh, in_specs=P(), out_specs=P())(x)
    jax.vmap(FORM(block), spmd_axis_name=('x', 'y'))(xs)   # xs (8, 8, 8) on P(('x', 'y'), None, None)

Forms: `jax.lax.map(block, x, batch_size=None)`, `batch_size=2`, `jax.lax.scan` over the rows, and the
shard_map applied directly (a `jax.vmap(block)` on the way: eager, the control). Reference: numpy.
"""

from __future__ import annotations

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(x):
    m = x.mean() + 2.0

    def body(b):
        return (b * 2.0 + 1.0) * m

    return jax.shard_map(body, mesh=MESH, in_specs=P(), out_specs=P())(x)


FORMS = {
    "lax.map batch_size=None": lambda x: jax.lax.map(block, x, batch_size=None),
    "lax.map batch_size=2": lambda x: jax.lax.map(block, x, batch_size=2),
    "lax.scan": lambda x: jax.lax.scan(lambda c, r: (c, block(r)), 0.0, x)[1],
    "direct (inner vmap, eager)": lambda x: jax.vmap(block)(x),
}


def main() -> None:
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    reference = (xs0 * 2.0 + 1.0) * (xs0.mean(axis=2, keepdims=True) + 2.0)
    for name, form in FORMS.items():
        xs = jax.device_put(jnp.asarray(xs0), NamedSharding(MESH, P(("x", "y"), None, None)))
        try:
            out = np.asarray(jax.vmap(form, spmd_axis_name=("x", "y"))(xs))
            verdict = "runs, matches" if np.allclose(out, reference, rtol=1e-5, atol=1e-4) else "runs, DIFFERS"
        except Exception as err:  # noqa: BLE001 - the measurement records what JAX raises
            verdict = f"fails: {type(err).__name__}: {str(err).splitlines()[0][:110]}"
        print(f"{name:28} {verdict}")


if __name__ == "__main__":
    main()
