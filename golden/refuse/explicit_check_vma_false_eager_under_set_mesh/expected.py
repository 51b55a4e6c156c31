"""check_vma=False on a shard_map that a vmap with spmd_axis_name reaches eagerly through an inner vmap, with
the batch placed on the Explicit spmd axis before a `with jax.set_mesh(mesh):` block that calls the vmap: JAX
does not make that axis manual there (SPMD008; fuzz seed 23826). The placement is read through the `with`
block."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ('data', 'model'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(x):
    y = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)
    y = jax.sharding.reshard(y, P('model'))
    return y


def apply(x):
    return jax.vmap(block, in_axes=0)(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jnp.asarray(xs0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('data', None, None)))
    with jax.set_mesh(mesh):
        result = jax.vmap(apply, spmd_axis_name='data')(xs)
    return result, xs0 * 2.0
