"""A partial-manual shard_map (`axis_names={'x'}`) under a vmap whose spmd axis it leaves out, and the fixes.

Run: `python safety/measurements/partial_manual_missing_spmd_axis.py` (sets 8 virtual CPU devices itself; jax
0.10.2). A shard_map with `in_specs=P('x')`, `out_specs=P('x')` over `Mesh(devices.reshape(2, 4), ('x', 'y'))`
(and a 2x2x2 mesh) under `jax.vmap(..., spmd_axis_name='y')`, eager and under jit; each line prints `ok`,
`DIFFERS` or the error. docs/rules.md (SPMD008) records the outcome: rename and add-axis, which append their
axis to `axis_names`, run; so does a plain vmap.
"""
from __future__ import annotations

import os
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax, numpy as np, jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P
X = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
def attempt(name, fn, ref=X * 2 + 1):
    for mode in ("eager", "jit"):
        try:
            out = fn() if mode == "eager" else jax.jit(fn)()
            print(f"{name:55} {mode:5}", "ok" if np.allclose(out, ref) else "DIFFERS")
        except Exception as e:
            print(f"{name:55} {mode:5} raises {type(e).__name__}: {str(e).splitlines()[0][:90]}")
m2 = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
m3 = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))
m222 = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))
def sm(mesh, names, body=lambda b: b * 2 + 1):
    return lambda v: jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names=names)(v)
attempt("axis_names {x} under spmd y", lambda: jax.vmap(sm(m2, {'x'}), spmd_axis_name='y')(X))
attempt("drop", lambda: jax.vmap(sm(m2, {'x'}))(X))
attempt("axis_names {x,y} under spmd y (add spmd axis)", lambda: jax.vmap(sm(m2, {'x', 'y'}), spmd_axis_name='y')(X))
attempt("add-axis: {x,batch} under spmd batch", lambda: jax.vmap(sm(m3, {'x', 'batch'}), spmd_axis_name='batch')(X))
attempt("add-axis without axis_names edit", lambda: jax.vmap(sm(m3, {'x'}), spmd_axis_name='batch')(X))
attempt("3-axis: {x} under spmd y", lambda: jax.vmap(sm(m222, {'x'}), spmd_axis_name='y')(X))
attempt("3-axis rename y->z, axis_names {x,z}", lambda: jax.vmap(sm(m222, {'x', 'z'}), spmd_axis_name='z')(X))
psum = lambda b: b * 2 + 1 + 0 * jax.lax.psum(b, 'x')
attempt("psum x: add-axis {x,batch} spmd batch", lambda: jax.vmap(sm(m3, {'x', 'batch'}, psum), spmd_axis_name='batch')(X))
attempt("psum x: {x,y} under spmd y", lambda: jax.vmap(sm(m2, {'x', 'y'}, psum), spmd_axis_name='y')(X))
