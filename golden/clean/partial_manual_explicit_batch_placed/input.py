"""A partial-manual shard_map (axis_names={'x'}) under a vmap with spmd_axis_name='y', on an Explicit mesh whose
batch is placed on 'y': it runs (no SPMD008), unlike the same program on an Auto mesh (hazard H4)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('y', 'x')))
    result = jax.vmap(block, spmd_axis_name='y')(xs)
    return result, xs0 * 2.0 + 1.0
