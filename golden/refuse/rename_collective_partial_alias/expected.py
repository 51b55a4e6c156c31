import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

# The body calls a module-level `functools.partial` of psum over 'fsdp': 'fsdp' is not a free axis, so rename
# is not offered (breaker5 q33: renaming 'data' to 'fsdp' raised a pvary error).
mesh = jax.make_mesh((2, 2, 2), ('data', 'fsdp', 'model'), axis_types=(AxisType.Auto,) * 3)
sum_over_fsdp = functools.partial(jax.lax.psum, axis_name='fsdp')


def body(b):
    return sum_over_fsdp(jnp.tanh(b))


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(('data', 'model')), out_specs=P(('data', 'model')))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    return jax.jit(jax.vmap(block, spmd_axis_name='data'))(x), 2.0 * np.tanh(np.asarray(x))
