"""Measurement: an input placed on an Explicit axis at a dimension after the batch, mapped away by an inner
jax.vmap (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/inner_vmap_explicit_placement.py

The program: `xs` of shape (8, 8, 8) placed `P(None, A, None)` on `jax.make_mesh((2, 4), ('x', 'y'))`
(Explicit), an outer `jax.vmap(apply, [spmd_axis_name=S])`, `apply(x) = jax.vmap(block)(x)` (the inner vmap
maps the per-example dimension placed on A), `block` applying a shard_map with in_specs = out_specs = SPEC.
Each line printed: a variant, then OK (runs, equals the reference), WRONG (runs, differs) or RAISED and the
first line of the error. Then the candidate fixes, each on the failing variants."""
import os
os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=8'
import itertools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'))
X = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0


def body(b):
    return jnp.cumsum(b, axis=-1) * 2.0 + 1.0


REF = np.cumsum(X, axis=-1) * 2.0 + 1.0


def attempt(label, fn):
    try:
        r = fn()
        out = 'OK' if np.allclose(np.asarray(r), REF) else 'WRONG'
    except Exception as e:  # noqa: BLE001 - the outcome is what is measured
        out = f"RAISED {type(e).__name__}: {str(e).splitlines()[0][:110]}"
    print(f"{label} -> {out}", flush=True)
    return out


def program(place, spmd, spec, check_vma, jit, inner='between', placed=True, inner_axis=0):
    """The result of the program (raises as JAX does)."""
    sm = jax.shard_map(body, mesh=MESH, in_specs=spec, out_specs=spec, check_vma=check_vma)
    if inner == 'between':
        apply = lambda x: jax.vmap(sm, in_axes=inner_axis, out_axes=inner_axis)(x)
    else:  # the inner vmap inside the body: the shard_map maps the per-example value
        sm = jax.shard_map(lambda b: jax.vmap(body)(b), mesh=MESH, in_specs=spec, out_specs=spec,
                           check_vma=check_vma)
        apply = sm
    kw = {} if spmd is None else {'spmd_axis_name': spmd}
    f = jax.vmap(apply, **kw)
    f = jax.jit(f) if jit else f
    xs = jnp.asarray(X)
    if placed:
        xs = jax.device_put(xs, NamedSharding(MESH, place))
    return f(xs)


def label(place, spmd, spec, check_vma, jit, inner):
    return (f"placed {place} | spmd_axis_name={spmd!r} | inner vmap {inner} | specs {spec} | "
            f"check_vma={check_vma} | {'jit' if jit else 'eager'}")


print("== the failing kind and its neighbours ==")
failing = []
for place, spmd, spec, check_vma, jit, inner in itertools.product(
        (P(None, 'x', None), P(None, 'y', None)), ('x', 'y', None), (P(), P('x'), P('y')), (True, False),
        (False, True), ('between', 'in_body')):
    lab = label(place, spmd, spec, check_vma, jit, inner)
    out = attempt(lab, lambda: program(place, spmd, spec, check_vma, jit, inner))
    if out.startswith('RAISED') and inner == 'between':
        failing.append((place, spmd, spec, check_vma, jit))

print("== candidate fixes on each failing 'between' variant ==")
for place, spmd, spec, check_vma, jit in failing:
    base = label(place, spmd, spec, check_vma, jit, 'between')
    a = place[1]
    # move-placement: the inner-mapped dimension no longer placed; its axis moved to the next dimension
    attempt(f"{base} || placement P(None, None, {a!r})",
            lambda: program(P(None, None, a), spmd, spec, check_vma, jit))
    attempt(f"{base} || placement P(None, None, None)",
            lambda: program(P(None, None, None), spmd, spec, check_vma, jit))
    attempt(f"{base} || no placement", lambda: program(place, spmd, spec, check_vma, jit, placed=False))
    if spmd is not None:
        attempt(f"{base} || placement P({spmd!r}, None, None)",
                lambda: program(P(spmd, None, None), spmd, spec, check_vma, jit))
        attempt(f"{base} || drop spmd_axis_name", lambda: program(place, None, spec, check_vma, jit))
    stripped = P(*[None if e == a else e for e in spec])
    if stripped != spec:
        attempt(f"{base} || strip {a!r} from specs -> {stripped}",
                lambda: program(place, spmd, stripped, check_vma, jit))
    attempt(f"{base} || check_vma=True", lambda: program(place, spmd, spec, True, jit))
    attempt(f"{base} || under jit", lambda: program(place, spmd, spec, check_vma, True))
