"""A module-level array the vmap does not batch, closed over by a body whose specs name no mesh axis."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = np.linspace(0.5, 1.5, 8, dtype=np.float32)


def scale(a):
    return jax.shard_map(lambda b: b * W, mesh=mesh, in_specs=P(), out_specs=P())(a)


def main():
    xs = np.linspace(-2, 2, 32, dtype=np.float32).reshape(4, 8)
    result = jax.jit(jax.vmap(scale, spmd_axis_name='x'))(xs)
    reference = xs * W
    return result, reference
