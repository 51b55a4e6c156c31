"""Measurement behind SPMD007's unary exemption for a body that applies an inner vmap (jax 0.10.2, CPU, 8 virtual
devices). Run: python safety/measurements/spmd007_inner_vmap_unary.py

A shard_map body `jax.vmap(lambda r: g(r))(b)` under an spmd vmap, check_vma=True: with g unary (sin, unary minus)
it runs and matches; with g binary (r * 2.0) it raises hazard H2's pvary error. Found by the fuzzer (seed 5842).
Each line printed: the lambda, then OK, WRONG or RAISED."""
import os
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import Mesh, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
X = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
for name, g, ref in (("sin", lambda r: jnp.sin(r), np.sin), ("neg", lambda r: -r, np.negative),
                     ("times 2", lambda r: r * 2.0, lambda v: v * 2.0)):
    block = lambda x: jax.shard_map(lambda b: jax.vmap(g)(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
    try:
        r = jax.vmap(block, spmd_axis_name='y')(X)
        print(name, "OK" if np.allclose(r, ref(X), atol=1e-5) else "WRONG")
    except Exception as e:
        print(name, "RAISED", type(e).__name__, str(e)[:60].replace("\n", " "))
