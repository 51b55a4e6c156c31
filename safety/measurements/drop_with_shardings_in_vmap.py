"""Issue 24: drop-spmd-axis (a plain `jax.vmap`) on an Auto mesh when the vmapped function also names the former
spmd axis outside the shard_map: a `with_sharding_constraint` (SPMD005), a `jax.device_put`, or a `jax.jit`
with `in_shardings` / `out_shardings`.

Run: `python safety/measurements/drop_with_shardings_in_vmap.py` (8 virtual CPU devices; jax 0.10.2).

The vmapped function (one example of shape (8, 8), batch 4) places its example with one FORM naming `'x'`,
then applies `shard_map(b * 2 + 1, in_specs=P('x'), out_specs=P('x'))`, then `* 3`, on
`Mesh(devices.reshape(2, 4), ('x', 'y'))` (Auto axes). It runs under `jax.vmap(f, spmd_axis_name='x')` (the
program before the fix) and `jax.vmap(f)` (after drop-spmd-axis), eager and under `jax.jit`, check_vma True
and False. Reference: numpy. A second group places the caller's input on the mesh (`P('x')`,
`P('x', None, 'y')`, `P(None, 'x')`) and runs FORM none.

Measured: with spmd_axis_name='x' every FORM raises (the in_specs collision, the constraint's SPMD005 error, or
`DuplicateSpecError` for the jit shardings); the plain vmap runs and matches the reference with every FORM,
eager and under jit, check_vma True and False, and with the caller's input placed in each way. So naming the former spmd axis in the vmapped function is on
drop-spmd-axis's allowlist on an Auto mesh (docs/safety.md, "drop-spmd-axis: where it is offered").
"""

from __future__ import annotations

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from _outcome import show_group

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
X = np.arange(4 * 8 * 8, dtype=np.float32).reshape(4, 8, 8)
REF = (X * 2 + 1) * 3
ROW = NamedSharding(mesh, P("x", None))

FORMS = {
    "none": lambda v: v,
    "constraint P('x', None)": lambda v: jax.lax.with_sharding_constraint(v, ROW),
    "constraint P(None, 'x')": lambda v: jax.lax.with_sharding_constraint(v, NamedSharding(mesh, P(None, "x"))),
    "device_put P('x', None)": lambda v: jax.device_put(v, ROW),
    "jit in_shardings P('x', None)": lambda v: jax.jit(lambda t: t, in_shardings=ROW)(v),
    "jit out_shardings P('x', None)": lambda v: jax.jit(lambda t: t, out_shardings=ROW)(v),
}


def program(form, check_vma):
    def f(v):
        v = FORMS[form](v)
        out = jax.shard_map(lambda b: b * 2 + 1, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=check_vma)(v)
        return out * 3

    return f


for form in FORMS:
    for spmd in ("x", None):
        label = f"{form:32} spmd_axis_name={spmd!r:6}"
        variants = {}
        for cv in (True, False):
            f = program(form, cv)
            vm = jax.vmap(f, spmd_axis_name=spmd) if spmd else jax.vmap(f)
            variants[f"cv={cv} eager"] = lambda vm=vm: vm(X)
            variants[f"cv={cv} jit"] = lambda vm=vm: jax.jit(vm)(X)
        show_group(label, variants, REF)

# The caller's input placed on the Auto mesh (the batch dimension on the former spmd axis, or not), FORM none.
for spec in (P("x"), P("x", None, "y"), P(None, "x")):
    xs = jax.device_put(X, NamedSharding(mesh, spec))
    for spmd in ("x", None):
        variants = {}
        for cv in (True, False):
            vm = jax.vmap(program("none", cv), spmd_axis_name=spmd) if spmd else jax.vmap(program("none", cv))
            variants[f"cv={cv} eager"] = lambda vm=vm: vm(xs)
            variants[f"cv={cv} jit"] = lambda vm=vm: jax.jit(vm)(xs)
        show_group(f"{'input placed ' + str(spec):32} spmd_axis_name={spmd!r:6}", variants, REF)
