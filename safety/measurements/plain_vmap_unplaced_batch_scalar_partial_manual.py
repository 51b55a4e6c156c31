"""Measurement behind SPMD003's plain-vmap form with the batch dimension placed on no axis, for a captured
per-example scalar under a partial-manual shard_map (jax 0.10.2, CPU, 8 virtual devices; fuzz seed 350567).
Run: python safety/measurements/plain_vmap_unplaced_batch_scalar_partial_manual.py

`jax.vmap(block)` (no spmd_axis_name, eager or under jax.jit) over xs placed on a 2x4 Explicit mesh ('x', 'y')
with `P(None, 'x')`, `P(None, None)` or `P()` (no mesh axis at the batch dimension); block computes
`m = x.mean() + 2.0` and applies a shard_map whose body closes over m, with `axis_names` absent (every axis
manual) or `{'x'}`, specs `P('x')` or `P()`, check_vma True or False. Each line: axis_names, spec, jit,
placement, check_vma, then OK, WRONG or RAISED <error>.

Found: every axis manual: `Closing over inputs to shard_map where the input is sharded on Explicit axes` (or
the in_specs mismatch first); `axis_names={'x'}` with `P('x')` and check_vma=True: runs and matches for every
placement, eager and jitted; with check_vma=False `out_specs ... marked as manual` (eager) or `context mesh`
(jit); with `P()`: `context mesh ... should match the aval mesh`.

Part 2 (`axis_names={'x'}`, `P('x')`, check_vma=True, placements `P(None, 'x')` and `P()`, eager and jitted): what
the body does with the scalar decides. `b * m`, `jnp.where(b > 1.0, b, 0.5 * b) * m`, `jnp.sum(b) * m + b`,
`jnp.maximum(b, m)` run; `b + jnp.mean(m)` and `jnp.exp(m) * b` fail (`For primitive reduce_sum / exp, context
mesh ... should match the aval mesh`): an operation on the captured value alone fails.
"""
import os, itertools
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P, AxisType
mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))

def run(axis_names, spec, jit, placement, cv):
    def block(x):
        m = x.mean() + 2.0
        def body(b):
            return b * m
        kw = dict(mesh=mesh, in_specs=spec, out_specs=spec, check_vma=cv)
        if axis_names is not None:
            kw['axis_names'] = axis_names
        return jax.shard_map(body, **kw)(x)
    f = jax.vmap(block)
    if jit: f = jax.jit(f)
    xs = jnp.asarray((np.arange(32, dtype=np.float32).reshape(4, 8) - 10.0) / 8.0)
    xs = jax.device_put(xs, NamedSharding(mesh, placement))
    try:
        r = np.asarray(f(xs))
        ref = np.stack([np.asarray(x) * (np.asarray(x).mean() + 2.0) for x in np.asarray(xs)])
        return "OK" if np.allclose(r, ref, atol=1e-5) else "WRONG"
    except Exception as e:
        return "RAISED " + type(e).__name__ + ": " + str(e).splitlines()[0][:70]

BODIES = {
    "b*m": lambda b, m: b * m,
    "where*m": lambda b, m: jnp.where(b > 1.0, b, 0.5 * b) * m,
    "b+mean(m)": lambda b, m: b + jnp.mean(m),
    "sum(b)*m": lambda b, m: jnp.sum(b) * m + b,
    "exp(m)*b": lambda b, m: jnp.exp(m) * b,
    "max(b,m)": lambda b, m: jnp.maximum(b, m),
}


def run_body(name, jit, placement):
    fn = BODIES[name]

    def block(x):
        m = x.mean() + 2.0
        return jax.shard_map(lambda b: fn(b, m), mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)
    f = jax.jit(jax.vmap(block)) if jit else jax.vmap(block)
    xs = jax.device_put(jnp.asarray((np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0),
                        NamedSharding(mesh, placement))
    try:
        np.asarray(f(xs))
        return "OK"
    except Exception as e:  # noqa: BLE001 - the measurement records what JAX raises
        return "RAISED " + type(e).__name__ + ": " + str(e).splitlines()[0][:70]


for an, spec, jit, pl, cv in itertools.product([None, {'x'}], [P('x'), P()], [False, True], [P(None, 'x'), P(None, None), P()], [True, False]):
    print(an, spec, jit, pl, cv, run(an, spec, jit, pl, cv), flush=True)

print("part 2")
for name, jit, pl in itertools.product(BODIES, [False, True], [P(None, 'x'), P()]):
    print(name, jit, pl, run_body(name, jit, pl), flush=True)
