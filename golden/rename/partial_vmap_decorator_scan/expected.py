from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


@jax.shard_map(mesh=mesh, in_specs=P('x'), out_specs=P('x'))
def step_block(v):
    return v * 0.5 + 1.0


def step(carry, _):
    return step_block(carry), None


@partial(jax.vmap, spmd_axis_name='y')
def run(x):
    out, _ = jax.lax.scan(step, x, None, length=3)
    return out


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = run(x)
    reference = np.asarray(x)
    for _ in range(3):
        reference = reference * 0.5 + 1.0
    return result, reference
