"""Measurement behind SPMD003 (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/capture_size1_spmd_axis.py

A shard_map body closing over a value the spmd vmap batches, on an spmd axis of size 1 (8x1 and 1x8 meshes) and
of size 8: with check_vma=False the size-1 cases run and match, eager and under jit; every other case fails.
Each line printed: mesh and spmd axis, check_vma, jit, then OK, WRONG or RAISED."""
import os
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import Mesh, PartitionSpec as P
m81 = Mesh(np.array(jax.devices()).reshape(8, 1), ('x', 'y'))
m18 = Mesh(np.array(jax.devices()).reshape(1, 8), ('x', 'y'))
X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
W = np.linspace(1, 2, 8, dtype=np.float32)
for mn, m, spmd, spec in (("8x1 spmd y", m81, 'y', P('x')), ("1x8 spmd x", m18, 'x', P('y')), ("8x1 spmd x (size 8)", m81, 'x', P('y'))):
  for cv in (True, False):
    for jit in (False, True):
        def apply(x, w):
            return jax.shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=m, in_specs=spec, out_specs=spec, check_vma=cv)(x)
        f = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name=spmd)
        if jit: f = jax.jit(f)
        try:
            r = f(X, W); print(mn, cv, jit, "OK" if np.allclose(r, (X * 2 + 1) * W[:, None]) else "WRONG")
        except Exception as e:
            print(mn, cv, jit, "RAISED", type(e).__name__, str(e)[:70].replace("\n", " "))
