"""Measurement behind SPMD007's cumulative ops (jax 0.10.2, CPU, 8 virtual devices).
Run: python safety/measurements/spmd007_cumulative_ops.py

Hazard H2's conditions: a `jax.vmap` between a vmap with spmd_axis_name and the shard_map it reaches, or inside the
shard_map body, with check_vma=True. The body applies one cumulative op of jax.numpy / jax.lax (with and
without an `axis` argument); a binary step (`r * 2.0`) is the control that must raise. Found by the fuzzer (seed
1077: `jnp.cumsum(r, axis=-1)`). Each line printed: where the inner vmap sits, the op, then OK (runs, equals the
reference: the same program with a plain outer vmap), WRONG (runs, differs) or RAISED and the error."""
import os
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
X = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0

OPS = {
    "jnp.cumsum(r)": lambda r: jnp.cumsum(r),
    "jnp.cumsum(r, axis=-1)": lambda r: jnp.cumsum(r, axis=-1),
    "jnp.cumsum(r, axis=0)": lambda r: jnp.cumsum(r, axis=0),
    "jnp.cumsum(r, -1)": lambda r: jnp.cumsum(r, -1),
    "jnp.cumprod(r, axis=-1)": lambda r: jnp.cumprod(r, axis=-1),
    "jnp.cumulative_sum(r, axis=-1)": lambda r: jnp.cumulative_sum(r, axis=-1),
    "jnp.cumulative_prod(r, axis=-1)": lambda r: jnp.cumulative_prod(r, axis=-1),
    "jnp.nancumsum(r, axis=-1)": lambda r: jnp.nancumsum(r, axis=-1),
    "jnp.nancumprod(r, axis=-1)": lambda r: jnp.nancumprod(r, axis=-1),
    "jax.lax.cumsum(r, axis=0)": lambda r: jax.lax.cumsum(r, axis=0),
    "jax.lax.cumprod(r, axis=0)": lambda r: jax.lax.cumprod(r, axis=0),
    "jax.lax.cummax(r, axis=0)": lambda r: jax.lax.cummax(r, axis=0),
    "jax.lax.cummin(r, axis=0)": lambda r: jax.lax.cummin(r, axis=0),
    "jax.lax.cumlogsumexp(r, axis=0)": lambda r: jax.lax.cumlogsumexp(r, axis=0),
    "jax.lax.cumsum(r, axis=0, reverse=True)": lambda r: jax.lax.cumsum(r, axis=0, reverse=True),
    "jnp.cumsum(jnp.sin(r), axis=-1)": lambda r: jnp.cumsum(jnp.sin(r), axis=-1),
    "control: r * 2.0": lambda r: r * 2.0,
}


def in_body(g, spmd='y'):
    """The inner vmap inside the body: shard_map(lambda b: jax.vmap(g)(b)) under a vmap over `spmd`."""
    block = lambda x: jax.shard_map(lambda b: jax.vmap(g)(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
    return jax.vmap(block, spmd_axis_name=spmd)(X)


def between(g, spmd='y'):
    """The inner vmap between the spmd vmap and the shard_map: vmap(vmap(shard_map(g)), spmd_axis_name=spmd)."""
    sm = jax.shard_map(g, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
    return jax.vmap(jax.vmap(sm), spmd_axis_name=spmd)(X)


def between_jit(g, spmd='y'):
    return jax.jit(lambda v: between(g, spmd))(X)


for where, run in (("in body", in_body), ("between", between), ("between, jit", between_jit)):
    for name, g in OPS.items():
        ref = np.asarray(run(g, None))  # the same program under a plain outer vmap
        try:
            r = run(g)
            out = "OK" if np.allclose(np.asarray(r), ref, equal_nan=True) else "WRONG"
        except Exception as e:  # noqa: BLE001 - the outcome is what is measured
            out = f"RAISED {type(e).__name__}: {str(e).splitlines()[0][:80]}"
        print(f"{where} | {name} -> {out}", flush=True)
