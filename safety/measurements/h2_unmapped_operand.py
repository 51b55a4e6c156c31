"""Measurement behind SPMD007's doc (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/h2_unmapped_operand.py

Hazard H2 (an inner jax.vmap between the spmd vmap and a shard_map) when the body multiplies its mapped block by a
second operand that the vmaps do not batch (the form lift-captures writes for a closure array under P() specs):
the error is `Primitive mul requires varying manual axes to match` instead of the pvary error; without the inner
vmap, or with check_vma=False, it runs and matches. Found by the fuzzer (seed 5014).
Each line printed: form, check_vma, then OK, WRONG or RAISED."""
import os
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import Mesh, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)
X = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
for cv in (True, False):
    block = lambda x: jax.shard_map(lambda b, w: b * w, mesh=mesh, in_specs=(P(), P()), out_specs=P(), check_vma=cv)(x, W)
    for form, apply in (("inner vmap between", lambda x: jax.vmap(block)(x)), ("no inner vmap", block)):
        try:
            r = jax.vmap(apply, spmd_axis_name='x')(X)
            print(form, cv, "OK" if np.allclose(r, X * np.asarray(W), atol=1e-5) else "WRONG")
        except Exception as e:
            print(form, cv, "RAISED", type(e).__name__, str(e)[:60].replace("\n", " "))
