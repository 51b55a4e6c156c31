"""Issue 22 (new-user trial breaker4, p24): a shard_map whose specs collide with the spmd vmap's axis, applied only
under `if FLAG:` with `FLAG` a module constant, `False` (the branch never taken) or `True` (taken); and under
`if not FLAG:` / `else:`.

Run: `python safety/measurements/dead_branch_constant_flag.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))          # Auto
    def activation(x):
        if FLAG:                                     # FORM `if FLAG` (else: `if not FLAG:` / `else:` swapped)
            return jax.shard_map(jax.nn.silu, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)
        return jax.nn.silu(x)
    jax.vmap(activation, spmd_axis_name='data')(xs)   # eager, or under jax.jit; xs (4, 8)

The module constant is read by the function at trace time, as a module global is: the script sets it with
`globals()` before each run. Reference: `jax.nn.silu` of the input (numpy).

Result (jax 0.10.2): the branch not taken (`if FLAG:` with FLAG False, `if not FLAG:` with FLAG True) runs and
matches, eager and under jit; the branch taken fails with SPMD001's error (`vmap spmd_axis_name cannot appear
in shard_map in_specs`), eager and under jit.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _outcome import header, show_group  # noqa: E402 - sets XLA_FLAGS first

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, PartitionSpec as P  # noqa: E402

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))
FLAG = False


def activation_if(x):
    if FLAG:
        return jax.shard_map(jax.nn.silu, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)
    return jax.nn.silu(x)


def activation_if_not(x):
    if not FLAG:
        return jax.nn.silu(x)
    else:
        return jax.shard_map(jax.nn.silu, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)


def run(fn, flag, jit):
    globals()["FLAG"] = flag
    f = jax.vmap(fn, spmd_axis_name='data')
    f = jax.jit(f) if jit else f
    return f(jnp.linspace(-1.0, 1.0, 32).reshape(4, 8))


if __name__ == "__main__":
    header("a colliding shard_map under a branch on a module constant", ["eager", "jit"])
    reference = np.asarray(jax.nn.silu(np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)))
    for label, fn in (("if FLAG", activation_if), ("if not FLAG / else", activation_if_not)):
        for flag in (False, True):
            variants = {("jit" if jit else "eager"): (lambda fn=fn, flag=flag, jit=jit: run(fn, flag, jit)) for jit in (False, True)}
            show_group(f"{label:20} FLAG={flag}", variants, reference)
