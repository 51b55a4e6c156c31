"""The twin of refuse/plain_vmap_capture_array_made_under_set_mesh with `w` made before the `with
jax.set_mesh(mesh):` block: an uncommitted array (`SingleDeviceSharding`), whose capture runs and matches, eager
and under jit, check_vma True and False (safety/measurements/plain_vmap_inner_capture_staged.py, part 2). No
finding."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def main():
    x0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 20.0) / 16.0
    w = jnp.linspace(0.5, 2.0, 8)
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(x0), P(None, 'x'))
        result = jax.vmap(lambda x: jax.shard_map(lambda b: b + w.mean(), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x))(xs)
    return result, x0 + np.linspace(0.5, 2.0, 8).mean()
