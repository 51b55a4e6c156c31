"""Measurement behind SPMD007 (jax 0.10.2, CPU, 8 virtual devices).
Run: python safety/measurements/spmd007_binary_beside_inner_vmap.py

A shard_map body (`in_specs=P('x')`, `out_specs=P('x')`, check_vma on) that applies an inner `jax.vmap` of a
unary lambda, under `jax.vmap(..., spmd_axis_name='y')`, eager and under jit: binary steps of the body outside
the inner vmap (`+ 2`, `+ 2.0`, `* b`, on its argument `b * 2.0`) run and match; a binary step inside the
inner vmapped lambda (`r * 2.0`) raises the pvary error of hazard H2 (fuzz seed 20245).
Each line: the body, jit, then OK, WRONG or RAISED <error>.
"""
import os

os.environ['XLA_FLAGS']='--xla_force_host_platform_device_count=8'
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

m = Mesh(np.array(jax.devices()).reshape(2,4), ('x','y'))
X = (np.arange(512, dtype=np.float32).reshape(8,8,8) - 170.)/128.
bodies = {
 "vmap(sin)(b) + 2": (lambda b: jax.vmap(lambda r: jnp.sin(r))(b) + 2, lambda x: np.sin(x) + 2),
 "vmap(sin)(b) + 2.0": (lambda b: jax.vmap(lambda r: jnp.sin(r))(b) + 2.0, lambda x: np.sin(x) + 2.0),
 "vmap(sin)(b) * b": (lambda b: jax.vmap(lambda r: jnp.sin(r))(b) * b, lambda x: np.sin(x) * x),
 "vmap(sin)(b * 2.0)": (lambda b: jax.vmap(lambda r: jnp.sin(r))(b * 2.0), lambda x: np.sin(x * 2.0)),
 "vmap(r*2.0)(b)": (lambda b: jax.vmap(lambda r: r * 2.0)(b), lambda x: x * 2.0),
}
for name, (body, ref) in bodies.items():
  for jit in (False, True):
    f = jax.vmap(lambda x, body=body: jax.shard_map(body, mesh=m, in_specs=P('x'), out_specs=P('x'))(x), spmd_axis_name='y')
    f = jax.jit(f) if jit else f
    try:
        r = f(X); print(name, jit, "OK" if np.allclose(r, ref(X), atol=1e-5) else "WRONG")
    except Exception as e:  # noqa: BLE001 (the outcome is what is measured)
        print(name, jit, "RAISED", type(e).__name__, str(e).splitlines()[0][:90])
