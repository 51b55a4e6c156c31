import jax
import jax.numpy as jnp
import numpy as np

mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def body(v):
    return jnp.sin(v) + 1.0


@jax.jit
def sharded(x):
    spec = jax.sharding.PartitionSpec('y')
    return jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec)(x)


def main():
    x = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    result = jax.vmap(sharded, spmd_axis_name=('x', 'y'))(x)
    reference = np.sin(np.asarray(x)) + 1.0
    return result, reference
