"""With check_vma=False a body that keeps an inner jax.vmap can have its capture lifted (measured: it runs)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def add_bias(bias, rows):
    def body(block, bias):
        return jax.vmap(lambda r: r + bias)(block)

    return jax.shard_map(
        body, mesh=mesh, in_specs=(P(None, 'y'), P()), out_specs=P(None, 'y'), check_vma=False
    )(rows, bias)


def main():
    bias = jnp.arange(4, dtype=jnp.float32) * 100.0
    rows = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8)
    result = jax.vmap(add_bias, spmd_axis_name='x')(bias, rows)
    reference = np.asarray(rows) + np.asarray(bias)[:, None, None]
    return result, reference
