"""Measurement behind docs/safety.md, H2 (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/h2_explicit_placed.py

An inner jax.vmap with a binary body, between a vmap with spmd_axis_name='x' and a shard_map or inside its body,
check_vma=True, on meshes whose axis 'x' is Explicit or Auto, with the batch placed on mesh axes or not.
Each line printed: a variant, then OK (runs, equals the reference), WRONG (runs, differs) or RAISED."""
import os
os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=8'
import jax, numpy as np, jax.numpy as jnp
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

MESHES = {
    'make_mesh (Explicit)': jax.make_mesh((2, 4), ('x', 'y')),
    'x Explicit, y Auto': jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Auto)),
    'x Auto, y Explicit': jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Explicit)),
    'Mesh (Auto)': Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y')),
}
X = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0


def op(r):
    return r * 2.0 + 1.0


def attempt(name, mesh, spec, where, place, jit):
    if where == 'in body':
        def apply(x):
            return jax.shard_map(jax.vmap(op), mesh=mesh, in_specs=spec, out_specs=spec)(x)
    else:
        def apply(x):
            return jax.vmap(lambda r: jax.shard_map(op, mesh=mesh, in_specs=spec, out_specs=spec)(r))(x)
    xs = jnp.asarray(X) if place is None else jax.device_put(jnp.asarray(X), NamedSharding(mesh, place))
    f = jax.vmap(apply, spmd_axis_name='x')
    f = jax.jit(f) if jit else f
    label = f"{name} | specs {spec} | inner vmap {where} | batch placed {place} | {'jit' if jit else 'eager'}"
    try:
        r = f(xs)
        print(label, 'OK' if np.allclose(np.asarray(r), op(X)) else 'WRONG')
    except Exception as e:
        print(label, 'RAISED', type(e).__name__, str(e).split('\n')[0][:100])


for name, mesh in MESHES.items():
    for spec, where, place in ((P(), 'in body', P('x')), (P(), 'between', P('x')), (P('y'), 'in body', P('x', 'y')),
                               (P('y'), 'between', P('x', None, 'y')), (P(), 'in body', None)):
        for jit in (False, True):
            attempt(name, mesh, spec, where, place, jit)
# the batch placed on axes other than exactly the spmd axis (Explicit mesh)
m = MESHES['make_mesh (Explicit)']
for place in (P('y'), P(('x', 'y'))):
    for jit in (False, True):
        attempt('make_mesh (Explicit)', m, P(), 'in body', place, jit)
