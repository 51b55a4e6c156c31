"""Fuzz seed 90054: SPMD008's eager `check_vma=False` case (an spmd vmap over a batch placed on its Explicit
spmd axis, or a plain vmap over a batch placed on an Explicit axis, reaching a `check_vma=False` shard_map)
when the shard_map is reached through a staging higher-order function inside the vmap.

Run: `python safety/measurements/explicit_check_vma_false_staged.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('x', 'y'))                        # Explicit axes
    xs = jax.device_put(X, NamedSharding(mesh, P('x', None, None)))  # a batch of 8 examples (8, 8), on 'x'
    def block(r):                                                    # r (8,): one row of an example
        return jax.shard_map(lambda b: b * 2 + 1, mesh=mesh, in_specs=SPEC, out_specs=SPEC, check_vma=False)(r)
    def apply(x):                                                    # x (8, 8)
        return HOF(block, x)
    jax.vmap(apply, spmd_axis_name='x')(xs)                          # eager; or a plain jax.vmap(apply)

SPEC: `P()` or `P('y')`. HOF: `direct` (`jnp.stack([block(r) for r in x])`, the control the rule was measured
on), `jit` (`jax.jit(block)` per row), `checkpoint`, `lax.map` (batch_size None), `lax.map batch_size=1`,
`batch_size=2`, `batch_size=8` (one chunk), `lax.scan`, `fori_loop`, `cond` (on a predicate the vmap batches,
`x[i].sum() > -1e9`, and on an unbatched one, `jnp.int32(i) >= 0`), `switch` (on an unbatched index
`jnp.int32(i % 2)`, and on a batched one), `while_loop`, and an inner `jax.vmap(block)` (not staged). The batch
is placed `P('x', None, None)`, or `P('x', None, 'y')` for SPEC `P('y')` (an Explicit shard_map's input is
placed as its in_specs say). Variants: the spmd vmap (`spmd_axis_name='x'`) and a plain `jax.vmap`,
both called eagerly (under an outer `jax.jit` every row runs: explicit_check_vma_false_eager.py); a last group
runs the same with check_vma=True as the control. Reference: numpy `X * 2 + 1`.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from _outcome import header, show_group

X = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
REF = X * 2.0 + 1.0
HOFS = ("direct", "jit", "checkpoint", "lax.map", "lax.map batch_size=1", "lax.map batch_size=2",
        "lax.map batch_size=8", "lax.scan", "fori_loop", "cond", "cond, unbatched predicate", "switch",
        "switch, batched index", "while_loop", "vmap")


def hof_apply(hof, block, x):
    """`block` applied to each row of `x` through the higher-order function `hof`."""
    rows = range(x.shape[0])
    if hof == "direct":
        return jnp.stack([block(x[i]) for i in rows])
    if hof == "jit":
        return jnp.stack([jax.jit(block)(x[i]) for i in rows])
    if hof == "checkpoint":
        return jnp.stack([jax.checkpoint(block)(x[i]) for i in rows])
    if hof == "lax.map":
        return jax.lax.map(block, x)
    if hof.startswith("lax.map batch_size="):
        return jax.lax.map(block, x, batch_size=int(hof.rsplit("=", 1)[1]))
    if hof == "lax.scan":
        return jax.lax.scan(lambda c, r: (c, block(r)), 0.0, x)[1]
    if hof == "fori_loop":
        return jax.lax.fori_loop(0, x.shape[0], lambda i, acc: acc.at[i].set(block(acc[i])), x)
    if hof == "cond":
        return jnp.stack([jax.lax.cond(x[i].sum() > -1e9, block, block, x[i]) for i in rows])
    if hof == "cond, unbatched predicate":
        return jnp.stack([jax.lax.cond(jnp.int32(i) >= 0, block, block, x[i]) for i in rows])
    if hof == "switch":
        return jnp.stack([jax.lax.switch(jnp.int32(i % 2), [block, block], x[i]) for i in rows])
    if hof == "switch, batched index":
        return jnp.stack([jax.lax.switch((x[i].sum() > -1e9).astype(jnp.int32), [block, block], x[i]) for i in rows])
    if hof == "while_loop":
        step = lambda s: (s[0] + 1, s[1].at[s[0]].set(block(s[1][s[0]])))
        return jax.lax.while_loop(lambda s: s[0] < x.shape[0], step, (0, x))[1]
    if hof == "vmap":
        return jax.vmap(block)(x)
    raise ValueError(hof)


def run(mesh, spec, hof, spmd, check_vma):
    """A fresh vmap object each call (an eager spmd vmap remembers earlier calls: eager_cache_placement.py)."""
    def block(r):
        return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=spec, out_specs=spec,
                             check_vma=check_vma)(r)

    def apply(x):
        return hof_apply(hof, block, x)

    row = "y" if spec == P("y") else None  # an Explicit shard_map input is placed as its in_specs say
    xs = jax.device_put(jnp.asarray(X), NamedSharding(mesh, P("x", None, row)))
    f = jax.vmap(apply, spmd_axis_name="x") if spmd else jax.vmap(apply)
    return f(xs)


def main() -> None:
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    variants = ("spmd_axis_name='x'", "plain vmap")
    header("eager check_vma=False shard_map reached through a staging function, batch placed on Explicit 'x'",
           variants)
    for check_vma, spec, hof in itertools.product((False, True), (P(), P("y")), HOFS):
        runs = {name: (lambda spmd=spmd: run(mesh, spec, hof, spmd, check_vma))
                for name, spmd in zip(variants, (True, False))}
        show_group(f"check_vma={check_vma!s:5} specs={spec!s:7} {hof}", runs, REF)


if __name__ == "__main__":
    main()
