import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'data', 'model'))


def block(x, ax):
    return jax.shard_map(lambda v: v * 2.0, mesh=mesh, in_specs=P(), out_specs=P(), axis_names={ax, 'batch'})(x)


def forward(xs):
    return jax.vmap(lambda x: block(x, 'data') + block(x, 'model'), spmd_axis_name='batch')(xs)


def main():
    xs = jnp.arange(4 * 8 * 16, dtype=jnp.float32).reshape(4, 8, 16) % 7 - 3.0
    return forward(xs), np.asarray(xs) * 4.0
