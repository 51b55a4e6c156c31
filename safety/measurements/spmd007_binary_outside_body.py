"""Measurement behind docs/safety.md (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/spmd007_binary_outside_body.py

Each line printed: a variant, then OK (runs, equals the reference), WRONG (runs, differs) or RAISED."""
import os
os.environ['XLA_FLAGS']='--xla_force_host_platform_device_count=8'
import jax, numpy as np, jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P
def attempt(name, fn, ref):
    try:
        r=fn(); print(name, 'OK' if np.allclose(np.asarray(r),ref) else 'WRONG')
    except Exception as e: print(name, 'RAISED', type(e).__name__, str(e).split('\n')[0][:100])
m2 = Mesh(np.array(jax.devices()).reshape(2,4), ('x','y'))
X3 = np.arange(4*4*8, dtype=np.float32).reshape(4,4,8)/10
def h2(x):
    return jax.vmap(lambda r: jax.shard_map(jnp.sin, mesh=m2, in_specs=P('y'), out_specs=P('y'))(r * 2.0 + 1.0) * 3.0)(x)
attempt("between, binary outside body", lambda: jax.vmap(h2, spmd_axis_name='x')(X3), np.sin(X3*2+1)*3)
