"""Measurement behind docs/safety.md (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/strip_constraint_with_psum.py

Each line printed: a variant, then OK (runs, equals the reference), WRONG (runs, differs) or RAISED."""
import os
os.environ['XLA_FLAGS']='--xla_force_host_platform_device_count=8'
import jax, numpy as np, jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
def attempt(name, fn, ref):
    try:
        r=fn(); print(name, 'OK' if np.allclose(np.asarray(r),ref) else 'WRONG', np.asarray(r).ravel()[:4], ref.ravel()[:4])
    except Exception as e: print(name, 'RAISED', type(e).__name__, str(e).split('\n')[0][:100])
mesh = Mesh(np.array(jax.devices()).reshape(2,4), ('x','y'))
X = np.arange(8*4, dtype=np.float32).reshape(8,4)
for spec in (P('x'), P(None)):
    def f(a, spec=spec):
        a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, spec))
        return jax.shard_map(lambda b: b + jax.lax.psum(b, 'x'), mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(a)
    attempt(f"constraint {spec}", lambda: jax.vmap(f, spmd_axis_name='x')(X), X*3)
    attempt(f"constraint {spec} plain vmap", lambda: jax.vmap(f)(X), X*3)
