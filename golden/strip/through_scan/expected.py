"""The shard_map is applied inside a lax.scan body of the vmapped function."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def _update(v):
    return v * 0.5 + 1.0


def _apply(v):
    return jax.shard_map(_update, mesh=mesh, in_specs=P(None, None), out_specs=P(None, None))(v)


def run(x):
    def body(carry, _):
        return _apply(carry), None

    out, _ = jax.lax.scan(body, x, None, length=3)
    return out


def main():
    xs = jnp.arange(4 * 2 * 8, dtype=jnp.float32).reshape(4, 2, 8)
    result = jax.vmap(run, spmd_axis_name='x')(xs)
    reference = np.asarray(xs)
    for _ in range(3):
        reference = reference * 0.5 + 1.0
    return result, reference
