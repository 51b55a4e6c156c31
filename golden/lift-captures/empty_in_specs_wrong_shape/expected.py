"""JAX issue 17874: a body with no arguments closes over the vmapped value, with empty in_specs.

Under vmap(spmd_axis_name='x') this does not raise: it returns an (64,) array for an (8,) input. main() returns
that result as is (further eager operations on it crash the process, measured on jax 0.10.2).
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ('x',))


def replicate(v):
    return jax.shard_map(lambda v: v, mesh=mesh, in_specs=(P(),), out_specs=P())(v)


def main():
    v = jnp.arange(8, dtype=jnp.float32)
    result = jax.vmap(replicate, spmd_axis_name='x')(v)
    reference = np.asarray(v)
    return result, reference
