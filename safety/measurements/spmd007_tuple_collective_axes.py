"""Issue 22 (silence5, item c): SPMD007 (hazard H2) with collectives over a tuple of axis names, beyond
spmd007_body_collectives_constants.py (which measured `psum`/`pmax`/`pmin` over the literal `('y', 'z')`):
a tuple naming the spmd axis (`('x', 'y')`), a one-element tuple (`('y',)`), the reversed tuple (`('z', 'y')`),
a list (`['y', 'z']`), a module constant bound to the tuple (`AXES = ('y', 'z')`, `AXES2 = ('x', 'y')`), and
`pmean` over `('x', 'y')`. Part 2: psum over several axes against the operand's varying state (which axes the
specs split the block on), with no vmap, a plain vmap, and the spmd vmap with an inner vmap or `lax.map`.

Run: `python safety/measurements/spmd007_tuple_collective_axes.py` (8 virtual CPU devices; jax 0.10.2).

Mesh (Auto): `Mesh(devices.reshape(2, 2, 2), ('x', 'y', 'z'))`, specs `P('y')`, spmd axis `'x'`. Batch 8 of
examples (4, 8); `jax.vmap(f, spmd_axis_name='x')` with `f(v) = WAY(g, v)`, `g = shard_map(BODY, in_specs=P('y'),
out_specs=P('y'), check_vma=cv)` applied to one row (8,). WAY: an inner `jax.vmap(g)`, `lax.map(g, v,
batch_size=2)`, or `direct` (g applied to the whole example, no inner vmap: no hazard H2; shown for the
collectives over the spmd axis, SPMD004's). Reference: the same program under a plain `jax.vmap` with
`check_vma=False` and `batch_size=None` (a scan), eager; a body whose reference raises prints it.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

from _outcome import header, show_group, value

X = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
AXES = ("y", "z")
AXES2 = ("x", "y")

BODIES = {
    "pmax(b, ('y', 'z'))  [measured before]": lambda b: jax.lax.pmax(b, ("y", "z")),
    "psum(b, ('y', 'z'))  [measured before]": lambda b: jax.lax.psum(b, ("y", "z")),
    "pmax(b, AXES), AXES = ('y', 'z')": lambda b: jax.lax.pmax(b, AXES),
    "pmin(b, AXES), AXES = ('y', 'z')": lambda b: jax.lax.pmin(b, AXES),
    "psum(b, AXES), AXES = ('y', 'z')": lambda b: jax.lax.psum(b, AXES),
    "pmax(b, ('z', 'y'))": lambda b: jax.lax.pmax(b, ("z", "y")),
    "pmax(b, ['y', 'z'])": lambda b: jax.lax.pmax(b, ["y", "z"]),
    "pmax(b, ('y',))": lambda b: jax.lax.pmax(b, ("y",)),
    "psum(b, ('y',))": lambda b: jax.lax.psum(b, ("y",)),
    "psum(b, ('z',))": lambda b: jax.lax.psum(b, ("z",)),
    "pmax(b, ('x', 'y'))  [spmd axis in the tuple]": lambda b: jax.lax.pmax(b, ("x", "y")),
    "psum(b, ('x', 'y'))  [spmd axis in the tuple]": lambda b: jax.lax.psum(b, ("x", "y")),
    "psum(b, ('x',))  [spmd axis alone]": lambda b: jax.lax.psum(b, ("x",)),
    "pmean(b, ('x', 'y'))  [spmd axis in the tuple]": lambda b: jax.lax.pmean(b, ("x", "y")),
    "psum(b, AXES2), AXES2 = ('x', 'y')  [spmd axis in the tuple]": lambda b: jax.lax.psum(b, AXES2),
}


def program(body, way, spmd, cv, jit, batch_size=2):
    mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))
    g = jax.shard_map(body, mesh=mesh, in_specs=P("y"), out_specs=P("y"), check_vma=cv)
    if way == "inner vmap":
        def f(v):
            return jax.vmap(g)(v)
    elif way == "lax.map":
        def f(v):
            return jax.lax.map(g, v, batch_size=batch_size)
    else:
        def f(v):
            return g(v[0])
    h = jax.vmap(f, spmd_axis_name="x") if spmd else jax.vmap(f)
    return jax.jit(h) if jit else h


def varying_state_rows() -> None:
    """Part 2: a psum over several axes fails under check_vma=True when the operand's varying state differs
    between them (split by the specs on one, not the other), with or without any vmap; it runs when the state is
    the same (all split, `P(('y', 'z'))`, or none, `P()`), under the spmd vmap with an inner vmap or `lax.map`
    too."""
    print("-- part 2: psum over several axes against the operand's varying state (check_vma=True)")
    mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))
    for spec, axes in ((P(), ("y", "z")), (P("y"), ("y", "z")), (P("z"), ("y", "z")), (P(("y", "z")), ("y", "z")),
                       (P(("y", "z")), ("z", "y")), (P("y"), ("x", "y")), (P("z"), ("x", "y"))):
        g = jax.shard_map(lambda b, axes=axes: jax.lax.psum(b, axes), mesh=mesh, in_specs=spec, out_specs=spec)
        ways = {
            "no vmap": lambda g=g: g(X[0, 0]),
            "plain vmap + inner vmap": lambda g=g: jax.vmap(lambda v: jax.vmap(g)(v))(X),
            "spmd 'x' + inner vmap": lambda g=g: jax.vmap(lambda v: jax.vmap(g)(v), spmd_axis_name="x")(X),
            "spmd 'x' + lax.map(2)": lambda g=g: jax.vmap(lambda v: jax.lax.map(g, v, batch_size=2), spmd_axis_name="x")(X),
            "spmd 'x' direct": lambda g=g: jax.vmap(lambda v: g(v[0]), spmd_axis_name="x")(X),
        }
        for way, run in ways.items():
            got = value(lambda run=run: (jax.block_until_ready(run()), "runs")[1])
            print(f"{f'psum(b, {axes!r}) under {spec}':40} {way:26} {got}"[:220], flush=True)


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("collectives over tuples of axes under an inner vmap (spmd 'x', mesh 2x2x2, P('y'))", variants)
    for name, body in BODIES.items():
        for way in ("inner vmap", "lax.map", "direct"):
            if way == "direct" and "spmd axis" not in name:
                continue
            ref = value(lambda body=body, way=way: np.asarray(program(body, way, False, False, False, None)(X)))
            label = f"{name:48} {way:10}"
            if isinstance(ref, str):
                print(f"{label} reference {ref}")
                continue
            runs = {f"cv={cv} {'jit' if jit else 'eager'}": (lambda cv=cv, jit=jit, body=body, way=way:
                    program(body, way, "x", cv, jit)(X)) for cv, jit in itertools.product((True, False), (False, True))}
            show_group(label, runs, ref)
    varying_state_rows()


if __name__ == "__main__":
    main()
