"""New-user trial breaker4, p24: the shard_map (whose in_specs name the spmd axis) is applied only under
`if USE_SHARDED_KERNEL:` with `USE_SHARDED_KERNEL = False` a module constant: Python never takes the branch, JAX
never traces the shard_map, and the program runs and matches, eager and under jit (measured on jax 0.10.2:
safety/measurements/dead_branch_constant_flag.py). No finding; an SPMD910 record at the test says the shard_map
was set aside (another module may set the flag). With the flag True it fails
(golden/add-axis/live_branch_module_flag)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
USE_SHARDED_KERNEL = False  # sharded kernel only on TPU runs


def activation(x):
    if USE_SHARDED_KERNEL:
        return jax.shard_map(jax.nn.silu, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    return jax.nn.silu(x)


def main():
    xs = jnp.linspace(-1, 1, 32).reshape(4, 8)
    out = jax.jit(jax.vmap(activation, spmd_axis_name="data"))(xs)
    return out, np.asarray(jax.nn.silu(np.asarray(xs)))
