import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

wide = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))
tall = Mesh(np.array(jax.devices()).reshape(4, 2), ('data', 'model'))


def block(x, mesh):
    return jax.shard_map(lambda v: v * 2.0, mesh=mesh, in_specs=P(None), out_specs=P(None))(x)


def forward(xs):
    return jax.vmap(lambda x: block(x, wide) + block(x, tall), spmd_axis_name='data')(xs)


def main():
    xs = jnp.arange(4 * 8 * 16, dtype=jnp.float32).reshape(4, 8, 16) % 7 - 3.0
    return forward(xs), np.asarray(xs) * 4.0
