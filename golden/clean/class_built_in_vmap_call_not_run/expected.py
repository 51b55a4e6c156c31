"""A class built inside the spmd-vmapped function whose __call__ (never called here) applies a shard_map naming
the spmd axis: JAX runs it; spmdfix read the construction as a call of __call__ and reported SPMD001/SPMD002
(newuser9)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class Scale:
    def __init__(self, x):
        self.s = x.sum()

    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(v)


def stat(x):
    return Scale(x).s


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(stat, spmd_axis_name='data')(xs)
    reference = np.asarray(xs).sum(axis=1)
    return result, reference
