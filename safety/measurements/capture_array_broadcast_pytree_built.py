"""Issue 22 (silence5, item c): SPMD003's broadcast exemption when the shard_map's pytree operand is not written
at the application as a literal but built before it: a name bound to the literal (`tree = {'a': x, 'b': w}`
then `f(tree)`), a helper of the module returning it (`def pack(x, w): return {'a': x, 'b': w}`, `f(pack(x,
w))`), a helper returning a name bound to it, and a tuple helper (`(x, w)`, body `t[0] * W`).

Run: `python safety/measurements/capture_array_broadcast_pytree_built.py` (8 virtual CPU devices; jax 0.10.2).

As `capture_array_broadcast_pytree.py`: `W = jnp.linspace(0.5, 1.5, 8)` (rank 1, unbatched) read by an
all-replicated body (`in_specs=({'a': P(), 'b': P()},)` or `((P(), P()),)`, `out_specs=P()`) under
`jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='x')` on a 2x4 Auto mesh; the leaf `x` of each example has rank 2
(xs (8, 8, 8): W broadcasts to a higher rank) or rank 1 (xs (8, 8): same rank). Body `(d['a'] * W) * d['b']`
(dict) or `t[0] * W` (tuple). Variants: check_vma True/False, eager/jit. Reference: the same program under a
plain `jax.vmap`.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

from _outcome import header, show_group, value

W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)
DICT_SPECS = ({"a": P(), "b": P()},)
TUPLE_SPECS = ((P(), P()),)


def pack(x, w):
    return {"a": x, "b": w}


def pack_named(x, w):
    tree = {"a": x, "b": w}
    return tree


def pair(x, w):
    return (x, w)


def dict_body(d):
    return (d["a"] * W) * d["b"]


def tuple_body(t):
    return t[0] * W


def named(x, w, sm):
    tree = {"a": x, "b": w}
    return sm(tree)


FORMS = {
    "tree = {...}; f(tree)": (named, dict_body, DICT_SPECS),
    "f(pack(x, w))": (lambda x, w, sm: sm(pack(x, w)), dict_body, DICT_SPECS),
    "f(pack_named(x, w))": (lambda x, w, sm: sm(pack_named(x, w)), dict_body, DICT_SPECS),
    "f(pair(x, w)), t[0] * W": (lambda x, w, sm: sm(pair(x, w)), tuple_body, TUPLE_SPECS),
}


def program(form, spmd, check_vma, jit):
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    apply_form, body, in_specs = FORMS[form]

    def apply(x, w):
        sm = jax.shard_map(body, mesh=mesh, in_specs=in_specs, out_specs=P(), check_vma=check_vma)
        return apply_form(x, w, sm)

    f = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name=spmd) if spmd else jax.vmap(apply, in_axes=(0, 0))
    return jax.jit(f) if jit else f


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("an unbatched array W (rank 1) meeting a leaf of a pytree operand built before the application", variants)
    ws = jnp.asarray(np.linspace(0.5, 2.0, 8, dtype=np.float32))
    for rank in (2, 1):
        shape = (8,) * (rank + 1)
        size = int(np.prod(shape))
        xs = jnp.asarray((np.arange(size, dtype=np.float32).reshape(shape) - size / 3) / (size / 4))
        for form in FORMS:
            ref = value(lambda form=form, xs=xs: np.asarray(program(form, None, True, False)(xs, ws)))
            label = f"leaf x of rank {rank}  {form:28}"
            if isinstance(ref, str):
                print(f"{label} reference {ref}")
                continue
            runs = {f"cv={cv} {'jit' if jit else 'eager'}":
                    (lambda cv=cv, jit=jit, form=form, xs=xs: program(form, "x", cv, jit)(xs, ws))
                    for cv, jit in itertools.product((True, False), (False, True))}
            show_group(label, runs, ref)


if __name__ == "__main__":
    main()
