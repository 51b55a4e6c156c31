"""Measurement behind docs/safety.md (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/spmd007_identity_body.py

Each line printed: a variant, then OK (runs, equals the reference), WRONG (runs, differs) or RAISED."""
import os
os.environ['XLA_FLAGS']='--xla_force_host_platform_device_count=8'
import jax, numpy as np, jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P
m2 = Mesh(np.array(jax.devices()).reshape(2,4), ('x','y'))
X3 = np.arange(4*4*8, dtype=np.float32).reshape(4,4,8)/10
def block(v): return jax.shard_map(lambda u: u, mesh=m2, in_specs=P('y'), out_specs=P('y'))(v)
def row(r): return jax.vmap(block)(r)
try:
    r = jax.vmap(row, spmd_axis_name='x')(X3); print("identity between", np.allclose(r, X3))
except Exception as e: print("RAISED", str(e)[:100])
def f(x): return jax.shard_map(jax.vmap(lambda u: u), mesh=m2, in_specs=P('y'), out_specs=P('y'))(x)
try:
    r = jax.vmap(f, spmd_axis_name='x')(X3); print("identity in body", np.allclose(r, X3))
except Exception as e: print("RAISED", str(e)[:100])
