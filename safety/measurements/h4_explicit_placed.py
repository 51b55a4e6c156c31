"""Measurement behind SPMD008, H4 (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/h4_explicit_placed.py

A partial-manual shard_map (axis_names={'x'}) under a vmap with spmd_axis_name='y': on an Explicit mesh with the
batch placed on 'y' it runs with check_vma=True (eager and jit); check_vma=False fails eagerly; unplaced, or on an
Auto mesh, it fails (H4). Each line printed: mesh and placement, check_vma, jit, then OK, WRONG or RAISED."""
import os
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
E = jax.make_mesh((2, 4), ('x', 'y'))
A = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
for mn, m, place in (("explicit placed P(y,x)", E, P('y', 'x')), ("explicit placed P(y)", E, P('y')), ("explicit unplaced", E, None), ("auto placed P(y,x)", A, P('y','x'))):
  for cv in (True, False):
    for jit in (False, True):
        xs = jnp.asarray(X) if place is None else jax.device_put(jnp.asarray(X), NamedSharding(m, place))
        f = jax.vmap(lambda a: jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=m, in_specs=P('x'), out_specs=P('x'), axis_names={'x'}, check_vma=cv)(a), spmd_axis_name='y')
        if jit: f = jax.jit(f)
        try:
            r = f(xs); print(mn, cv, jit, "OK" if np.allclose(r, X * 2 + 1) else "WRONG")
        except Exception as e:
            print(mn, cv, jit, "RAISED", str(e).splitlines()[0][:80])
