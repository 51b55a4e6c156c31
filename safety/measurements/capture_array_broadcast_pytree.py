"""Fuzz seed 230207: SPMD003's broadcast exemption (capture_array_broadcast.py) when the body's operand is a
pytree (a dict, tuple or list literal passed to the shard_map) and the captured array meets one of its leaves.

Run: `python safety/measurements/capture_array_broadcast_pytree.py` (8 virtual CPU devices; jax 0.10.2).

A module-level array `W = jnp.linspace(0.5, 1.5, 8)` (rank 1, not batched) is read by a shard_map body with
all-replicated specs (`in_specs=({'a': P(), 'b': P()},)`, `(P(), P())` for a tuple, `[P(), P()]` for a list;
`out_specs=P()`) under `jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='x')` on a 2x4 mesh ('x', 'y'), Auto.
`apply(x, w)` passes `{'a': x, 'b': w}` (or `(x, w)`, `[x, w]`, or a nested `{'a': (x, w)}`) to the shard_map.
The leaf `x` of each example has rank 2 (xs (8, 8, 8)) or rank 1 (xs (8, 8)); `w` has rank 0 (ws (8,)).
Bodies: the seed's `(d['a'] * W) * d['b']`, `d['a'] * W`, `W + d['a']`, the leaf of rank 0 (`d['b'] * W`), and
`t[0] * W`, `t[-2] * W`, `l[0] * W`, `d['a'][0] * W` for the nested form. Variants: check_vma True/False, eager/jit.
Reference: the same program under a plain `jax.vmap`.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from _outcome import header, show_group, value
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)

PACK = {
    "dict": (lambda x, w: {"a": x, "b": w}, ({"a": P(), "b": P()},)),
    "tuple": (lambda x, w: (x, w), ((P(), P()),)),
    "list": (lambda x, w: [x, w], ([P(), P()],)),
    "nested": (lambda x, w: {"a": (x, w)}, ({"a": (P(), P())},)),
}
BODIES = {
    "dict": {
        "(d['a'] * W) * d['b']": lambda d: (d["a"] * W) * d["b"],
        "d['a'] * W": lambda d: d["a"] * W,
        "W + d['a']": lambda d: W + d["a"],
        "d['b'] * W (leaf of rank 0)": lambda d: d["b"] * W,
    },
    "tuple": {"t[0] * W": lambda t: t[0] * W, "t[-2] * W": lambda t: t[-2] * W},
    "list": {"l[0] * W": lambda t: t[0] * W},
    "nested": {"d['a'][0] * W": lambda d: d["a"][0] * W},
}


def program(pack, body, spmd, check_vma, jit):
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    make, in_specs = PACK[pack]

    def apply(x, w):
        return jax.shard_map(body, mesh=mesh, in_specs=in_specs, out_specs=P(), check_vma=check_vma)(make(x, w))

    f = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name=spmd) if spmd else jax.vmap(apply, in_axes=(0, 0))
    return jax.jit(f) if jit else f


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("an unbatched array W (rank 1) meeting a leaf of a pytree operand in an all-replicated body", variants)
    ws = jnp.asarray(np.linspace(0.5, 2.0, 8, dtype=np.float32))
    for rank in (2, 1):
        shape = (8,) * (rank + 1)
        size = int(np.prod(shape))
        xs = jnp.asarray((np.arange(size, dtype=np.float32).reshape(shape) - size / 3) / (size / 4))
        for pack, bodies in BODIES.items():
            for name, body in bodies.items():
                ref = value(lambda pack=pack, body=body, xs=xs: np.asarray(program(pack, body, None, True, False)(xs, ws)))
                label = f"leaf x of rank {rank}  {pack:7} {name:30}"
                if isinstance(ref, str):
                    print(f"{label} reference {ref}")
                    continue
                runs = {f"cv={cv} {'jit' if jit else 'eager'}":
                        (lambda cv=cv, jit=jit, pack=pack, body=body, xs=xs: program(pack, body, "x", cv, jit)(xs, ws))
                        for cv, jit in itertools.product((True, False), (False, True))}
                show_group(label, runs, ref)


if __name__ == "__main__":
    main()
