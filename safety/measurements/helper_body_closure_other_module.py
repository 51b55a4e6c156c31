"""leftovers7 item 1: a helper of one module applying shard_map to the callable it is given (`def
apply_blocks(block, x): return jax.shard_map(block, ...)(x)`), called from another module with a closure over a
value the vmap batches. Does JAX refuse it as the same closure written in place (breaker6 r35, one module)? Under
an spmd vmap (`spmd_axis_name='data'`, specs `P('model')` and `P()`), and under a plain vmap over a batch placed
on an Explicit mesh (`P('data', 'model')` under specs `P('model')`, `P('data', None)` under `P()`), check_vma True and False, eager and `jax.jit`.
Controls: the helper given a module-level `def` (closes over nothing), a lambda closing over nothing, and the
batched value passed as an operand instead.

The helper lives in a module of its own (written to a temporary directory and imported), as in the program.

Run: python safety/measurements/helper_body_closure_other_module.py (jax 0.10.2, CPU, 8 devices).
"""

from __future__ import annotations

import _outcome  # noqa: F401  (sets XLA_FLAGS before jax is imported)
from _outcome import header, show_group

import importlib
import sys
import tempfile
import textwrap
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

HELPER = textwrap.dedent('''
    import jax
    from jax.sharding import PartitionSpec as P

    def make(mesh, spec, check_vma):
        def apply_blocks(block, x):
            return jax.shard_map(block, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=check_vma)(x)
        return apply_blocks

    def apply_operand(block, x, s, mesh, spec, check_vma):
        return jax.shard_map(block, mesh=mesh, in_specs=(spec, P()), out_specs=spec, check_vma=check_vma)(x, s)
''')
tmp = Path(tempfile.mkdtemp())
(tmp / "lo7_helper.py").write_text(HELPER)
sys.path.insert(0, str(tmp))
helper = importlib.import_module("lo7_helper")


def module_def(b):
    return jnp.tanh(b)


def programs(apply_blocks, mesh, spec, cv):
    """The callers, as train.py writes them: each maps one example (x: (8,), shift: scalar)."""
    return {
        "closure over batched shift": lambda x, s: apply_blocks(lambda b: jnp.tanh(b + s), x),
        "closure over s * 2 (derived)": lambda x, s: apply_blocks(lambda b, t=s * 2: jnp.tanh(b + t / 2), x),
        "module-level def (control)": lambda x, s: apply_blocks(module_def, x + s),
        "lambda over nothing (control)": lambda x, s: apply_blocks(lambda b: jnp.tanh(b), x + s),
        "shift as an operand (control)": lambda x, s: helper.apply_operand(
            lambda b, t: jnp.tanh(b + t), x, s, mesh, spec, cv
        ),
    }


header("a shard_map helper of another module given a closure over a batched value",
       ["eager", "jit"])
xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
shifts = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32)
ref = np.tanh(xs + shifts[:, None])
auto = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
explicit = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"), axis_types=(AxisType.Explicit,) * 2)

for spec_name, spec in (("P('model')", P("model")), ("P()", P())):
    for cv in (True, False):
        print(f"-- spmd vmap (spmd_axis_name='data', Auto mesh), specs {spec_name}, check_vma={cv}")
        apply_blocks = helper.make(auto, spec, cv)
        for label, fn in programs(apply_blocks, auto, spec, cv).items():
            def eager(fn=fn):
                return jax.vmap(fn, spmd_axis_name="data")(xs, shifts)

            def jitted(fn=fn):
                return jax.jit(jax.vmap(fn, spmd_axis_name="data"))(xs, shifts)

            show_group(f"  {label}", {"eager": eager, "jit": jitted}, ref)
        placement = P("data", *spec) if spec else P("data", None)
        print(f"-- plain vmap, batch placed {placement} on the Explicit mesh, specs {spec_name}, check_vma={cv}")
        apply_blocks = helper.make(explicit, spec, cv)
        xp = jax.device_put(xs, NamedSharding(explicit, placement))
        sp = jax.device_put(shifts, NamedSharding(explicit, P("data")))
        for label, fn in programs(apply_blocks, explicit, spec, cv).items():
            def eager(fn=fn, xp=xp, sp=sp):
                return jax.vmap(fn)(xp, sp)

            def jitted(fn=fn, xp=xp, sp=sp):
                return jax.jit(jax.vmap(fn))(xp, sp)

            show_group(f"  {label}", {"eager": eager, "jit": jitted}, ref)
