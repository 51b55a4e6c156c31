"""Measurement behind SPMD008's second case (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/explicit_check_vma_false_eager.py

A vmap with spmd_axis_name='x' over a batch placed on axis 'x' of an Explicit mesh (`jax.make_mesh`), reaching a
shard_map with check_vma=False: eager calls fail (`out_specs argument must refer to an axis marked as manual`),
calls under jax.jit (around the vmap, inside the vmapped function, or around the shard_map) run, and so does
check_vma=True. Each line printed: a variant, then OK (runs, equals the reference), WRONG (runs, differs) or RAISED."""
import os
os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=8'
import jax, numpy as np, jax.numpy as jnp
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

MESHES = {
    'make_mesh (Explicit)': jax.make_mesh((2, 4), ('x', 'y')),
    'x Explicit, y Auto': jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Auto)),
    'Mesh (Auto)': Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y')),
}
X = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0


def body(b):
    return b * 2.0 + 1.0


def attempt(label, mesh, spec, place, check_vma, form):
    sm = jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=check_vma)
    apply = {'jit inside': lambda x: jax.jit(sm)(x)}.get(form, sm)
    xs = jnp.asarray(X) if place is None else jax.device_put(jnp.asarray(X), NamedSharding(mesh, place))
    f = jax.vmap(apply, spmd_axis_name='x')
    f = jax.jit(f) if form == 'jit outside' else f
    try:
        r = f(xs)
        out = 'OK' if np.allclose(np.asarray(r), body(X)) else 'WRONG'
    except Exception as e:
        out = f"RAISED {type(e).__name__} {str(e).splitlines()[0][:100]}"
    print(f"{label} | specs {spec} | batch placed {place} | check_vma={check_vma} | {form}", out)


for name, mesh in MESHES.items():
    for spec, place in ((P(), P('x')), (P('y'), P('x', 'y'))):
        for check_vma in (True, False):
            for form in ('eager', 'jit outside', 'jit inside'):
                attempt(name, mesh, spec, place, check_vma, form)
# a plain vmap (no spmd_axis_name) over the same placed batch, specs naming no placed axis
m = MESHES['make_mesh (Explicit)']
for check_vma in (True, False):
    for jit in (False, True):
        xs = jax.device_put(jnp.asarray(X), NamedSharding(m, P('x')))
        f = jax.vmap(jax.shard_map(body, mesh=m, in_specs=P(), out_specs=P(), check_vma=check_vma))
        f = jax.jit(f) if jit else f
        try:
            out = 'OK' if np.allclose(np.asarray(f(xs)), body(X)) else 'WRONG'
        except Exception as e:
            out = f"RAISED {type(e).__name__} {str(e).splitlines()[0][:100]}"
        print(f"plain vmap | make_mesh (Explicit) | specs P() | batch placed P('x') | check_vma={check_vma} | {'jit' if jit else 'eager'}", out)
