"""`jax.smap` over 'x' (a shard_map whose only manual axis is 'x') under a vmap with spmd_axis_name='x'."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)


def layer(v):
    return jax.smap(lambda b: b * 2.0 + 1.0, in_axes=0, out_axes=0, axis_name='x')(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    with jax.set_mesh(mesh):
        result = jax.jit(jax.vmap(layer))(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
