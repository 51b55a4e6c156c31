"""spmd_axis_name arrives through **kw, with kw = dict(spmd_axis_name='x') built in the same function."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b * 0.25


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(None), out_specs=P(None))(x)


def forward(xs):
    kw = dict(spmd_axis_name='x')
    return jax.vmap(layer, **kw)(xs)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = forward(xs)
    reference = np.asarray(xs) * 0.25
    return result, reference
