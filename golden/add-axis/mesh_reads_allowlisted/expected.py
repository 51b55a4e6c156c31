import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

# Every read of the mesh is on add-axis's allowlist: its size, the size of a named axis, shardings with
# explicit specs (device_put, jit in/out_shardings) and the context mesh.
mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))
scale = mesh.size // mesh.shape['x']
row = NamedSharding(mesh, P(None, 'x'))


def layer(x):
    return jax.shard_map(lambda b: b * scale, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


run = jax.jit(jax.vmap(layer, spmd_axis_name='batch'), in_shardings=row, out_shardings=row)


def main():
    xs = jax.device_put(jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8), row)
    with jax.set_mesh(mesh):
        result = run(xs)
    return result, np.asarray(xs) * 4.0
