"""The same program as golden/unfollowed/dead_branch_module_flag with `USE_SHARDED_KERNEL = True`: the branch is
taken, JAX traces the shard_map and raises SPMD001's error (`vmap spmd_axis_name cannot appear in shard_map
in_specs`), eager and under jit (measured on jax 0.10.2: safety/measurements/dead_branch_constant_flag.py). The
findings stay; add-axis fixes it."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ("batch", "data", "model"))
USE_SHARDED_KERNEL = True  # sharded kernel on this run


def activation(x):
    if USE_SHARDED_KERNEL:
        return jax.shard_map(jax.nn.silu, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    return jax.nn.silu(x)


def main():
    xs = jnp.linspace(-1, 1, 32).reshape(4, 8)
    out = jax.jit(jax.vmap(activation, spmd_axis_name="batch"))(xs)
    return out, np.asarray(jax.nn.silu(np.asarray(xs)))
