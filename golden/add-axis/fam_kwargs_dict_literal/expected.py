"""spmd_axis_name arrives through **vmap_kwargs, a dict display built in the same function."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))


def body(b):
    return b * b


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def forward(xs):
    vmap_kwargs = {'in_axes': 0, 'spmd_axis_name': 'batch'}
    return jax.vmap(layer, **vmap_kwargs)(xs)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = forward(xs)
    reference = np.asarray(xs) ** 2
    return result, reference
