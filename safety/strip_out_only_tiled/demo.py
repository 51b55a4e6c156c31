"""Original: in_specs=P(), out_specs=P('x'), check_vma=False: every 'x' device returns its copy and the output is
tiled over 'x' (length 16). vmap(spmd_axis_name='x') collides in out_specs only. Applied anyway: out_specs -> P(None)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def double(v):
    return v * 2.0


def layer(x):
    return jax.shard_map(double, mesh=mesh, in_specs=P(), out_specs=P(None), check_vma=False)(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    doubled = np.asarray(xs) * 2.0
    reference = np.concatenate([doubled, doubled], axis=-1)  # tiled over the 2 devices of 'x'
    return result, reference
