"""A shard_map body closing over `w`, which neither the spmd vmap nor the inner `jax.vmap` between them maps
(in_axes None in both), check_vma=False (fuzz seed 70387): `w` stays unbatched, JAX runs it and matches the
reference, so there is no SPMD003 (the batched values follow the inner vmap's in_axes, as for SPMD004)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)


def apply(x, w):
    return jax.vmap(block, in_axes=(0, None))(x, w)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jnp.asarray(xs0)
    ws0 = np.float32(1.5)
    ws = jnp.asarray(ws0)
    reference = (xs0 * 2.0 + 1.0) * ws0
    result = jax.vmap(apply, in_axes=(0, None), spmd_axis_name='y')(xs, ws)
    return result, reference
