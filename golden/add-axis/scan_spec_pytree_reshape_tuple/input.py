import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape((2, 4)), ('x', 'y'))
SHARDED = P('x')
REPLICATED = P()


def axpy(v, a):
    return a * v + 1.0


def step(carry, a):
    out = jax.shard_map(axpy, mesh=mesh, in_specs=(SHARDED, REPLICATED), out_specs=SHARDED)(carry, a)
    return out, None


def run(x, coeffs):
    out, _ = jax.lax.scan(step, x, coeffs)
    return out


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    coeffs = jnp.array([0.5, 2.0, -1.0], dtype=jnp.float32)
    result = jax.vmap(run, in_axes=(0, None), spmd_axis_name='x')(x, coeffs)
    reference = np.asarray(x)
    for a in np.asarray(coeffs):
        reference = a * reference + 1.0
    return result, reference
