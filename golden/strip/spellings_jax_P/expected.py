"""The spec spellings jax.P and jax.sharding.PartitionSpec, no `P` import."""
import jax
import jax.numpy as jnp
import numpy as np

mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def two_outputs(a, b):
    return a * 3.0, jnp.abs(b) - 1.0


def layer(a, b):
    return jax.shard_map(
        two_outputs,
        mesh=mesh,
        in_specs=(jax.P(None), jax.sharding.PartitionSpec(None, 'y')),
        out_specs=(jax.P(None), jax.sharding.PartitionSpec(None, 'y')),
    )(a, b)


def main():
    a = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    b = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8) - 60.0
    result = jax.vmap(layer, spmd_axis_name='x')(a, b)
    reference = (np.asarray(a) * 3.0, np.abs(np.asarray(b)) - 1.0)
    return result, reference
