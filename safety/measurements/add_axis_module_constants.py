"""leftovers7 item 4 (breaker6 r21/r22): add-axis when the mesh's axis names or axis types are a module constant
bound once to a literal tuple (`AXES = ("data", "model")`; `jax.make_mesh((2, 4), AXES, axis_types=(Auto,) *
len(AXES))`; `AXIS_TYPES = (Auto, Auto)`). The fix extends the constant (`AXES = ("batch", "data", "model")`, the
repeat grows with it; `AXIS_TYPES = (Auto, Auto, Auto)`) and prepends 1 to the shape. Measured: the spmd vmap over
'data' with specs `P('data')` as written (SPMD001's error), the fixed program under `spmd_axis_name='batch'`, and
the reads of the constant the fix changes: `len(AXES)` (r21 divides by it), `AXES[0]`, `AXES.index('data')`.

Run: python safety/measurements/add_axis_module_constants.py (jax 0.10.2, CPU, 8 devices).
"""

from __future__ import annotations

import _outcome  # noqa: F401  (sets XLA_FLAGS before jax is imported)
from _outcome import header, show_group

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

header("add-axis through module constants of axis names and axis types", ["eager", "jit"])
x = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
ref = np.tanh(x) * 2.0


def program(axes, types, shape, spmd):
    mesh = jax.make_mesh(shape, axes, axis_types=types)

    def block(v):
        return jax.shard_map(lambda b: jnp.tanh(b) * 2.0, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(v)

    return {
        "eager": lambda: jax.vmap(block, spmd_axis_name=spmd)(x),
        "jit": lambda: jax.jit(jax.vmap(block, spmd_axis_name=spmd))(x),
    }


AXES = ("data", "model")
show_group("as written: AXES, (Auto,) * len(AXES), spmd 'data'",
           program(AXES, (AxisType.Auto,) * len(AXES), (2, 4), "data"), ref)
FIXED = ("batch", "data", "model")
show_group("fixed: AXES = ('batch', 'data', 'model'), (Auto,) * len(AXES), (1, 2, 4), spmd 'batch'",
           program(FIXED, (AxisType.Auto,) * len(FIXED), (1, 2, 4), "batch"), ref)
AXIS_TYPES = (AxisType.Auto, AxisType.Auto)
show_group("as written: AXIS_TYPES = (Auto, Auto), spmd 'data'", program(AXES, AXIS_TYPES, (2, 4), "data"), ref)
TYPES3 = (AxisType.Auto, AxisType.Auto, AxisType.Auto)
show_group("fixed: AXIS_TYPES = (Auto, Auto, Auto), (1, 2, 4), spmd 'batch'",
           program(FIXED, TYPES3, (1, 2, 4), "batch"), ref)
print(f"reads of the constant: len {len(AXES)} -> {len(FIXED)}, [0] {AXES[0]!r} -> {FIXED[0]!r}, "
      f".index('data') {AXES.index('data')} -> {FIXED.index('data')}; r21's out / len(AXES): "
      f"{'matches' if np.allclose(ref / len(AXES), ref / 2) else 'differs'} before, "
      f"{'matches' if np.allclose(ref / len(FIXED), ref / 2) else 'differs'} after")
