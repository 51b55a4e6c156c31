"""flax nnx Module whose __call__ applies a shard_map; nnx.vmap over a function calling it (collision)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

from flax import nnx

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


class Scale(nnx.Module):
    def __init__(self, s: float):
        self.s = s

    def __call__(self, x):
        s = self.s
        return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)


def main():
    layer = Scale(2.0)
    xs = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    out = nnx.vmap(lambda x: layer(x), spmd_axis_name='data')(xs)
    return out, np.asarray(xs) * 2.0
