"""Specs held in names (module level and local) and a dict out_specs pytree."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))

ACT = P('x', 'y')
OUT_SPECS = {'y': ACT, 'gate': P('x', 'y')}


def affine(v, scale, shift):
    return {'y': scale * v + shift, 'gate': jax.nn.sigmoid(v)}


def apply(x, scale, shift):
    param_spec = P('x', 'y')
    return jax.shard_map(
        affine, mesh=mesh, in_specs=(ACT, param_spec, param_spec), out_specs=OUT_SPECS
    )(x, scale, shift)


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8) / 32.0
    scale = jnp.full((4, 8), 0.5, dtype=jnp.float32)
    shift = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(apply, in_axes=(0, None, None), spmd_axis_name='x')(xs, scale, shift)
    reference = jax.vmap(affine, in_axes=(0, None, None))(xs, scale, shift)
    return result, reference
