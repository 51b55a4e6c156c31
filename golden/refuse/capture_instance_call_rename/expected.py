import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


class Layer:
    def __call__(self, x):
        m = x.mean() + 2.0

        def body(b):
            return b * m
        return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = (jnp.arange(64, dtype=jnp.float32).reshape(8, 8) - 21.0) / 16.0
    layer = Layer()
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    x0 = np.asarray(xs)
    reference = x0 * (x0.mean(axis=1, keepdims=True) + 2.0)
    return result, reference
