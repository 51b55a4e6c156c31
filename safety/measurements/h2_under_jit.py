"""Measurement behind SPMD007's doc (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/h2_under_jit.py

Hazard H2 (an inner jax.vmap between the spmd vmap and a shard_map) with a jax.jit between the inner vmap and the
shard_map: the error is a ManualAxisType assertion instead of the pvary error; check_vma=False and unary bodies run.
Each line printed: body, specs, check_vma, form, then OK, WRONG or RAISED."""
import os
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import Mesh, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
X = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
for bname, body, ref in (("affine", lambda b: b * 2.0 + 1.0, lambda x: x * 2 + 1), ("sin", jnp.sin, np.sin)):
  for spec in (P(), P('y')):
    for cv in (True, False):
        for form in ("jit(shard_map)", "shard_map", "jit(block)"):
            if form == "jit(shard_map)":
                block = lambda x: jax.jit(jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=cv))(x)
            elif form == "shard_map":
                block = lambda x: jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=cv)(x)
            else:
                block = jax.jit(lambda x: jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=cv)(x))
            apply = lambda x: jax.vmap(block)(x)
            try:
                r = jax.vmap(apply, spmd_axis_name='x')(X); print(bname, spec, cv, form, "OK" if np.allclose(r, ref(X), atol=1e-5) else "WRONG")
            except Exception as e:
                print(bname, spec, cv, form, "RAISED", type(e).__name__, str(e)[:50].replace("\n", " "))
