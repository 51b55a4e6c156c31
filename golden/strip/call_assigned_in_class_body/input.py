"""A class whose `__call__` is a function of the module assigned in its body; an instance built in the vmapped
function and then called runs that function, which applies a shard_map naming the spmd axis."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def _apply(self, v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


class Layer:
    __call__ = _apply


def step(v):
    layer = Layer()
    return layer(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(step, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
