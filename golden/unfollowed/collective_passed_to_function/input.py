import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

# `jax.lax.psum` is passed to a helper that applies it: its axis is not read, an SPMD910 record at the
# argument, and rename (which would pick 'fsdp', the psum's axis) is unsafe.
mesh = jax.make_mesh((2, 2, 2), ('data', 'fsdp', 'model'), axis_types=(AxisType.Auto,) * 3)


def apply_collective(f, v):
    return f(v, 'fsdp')


def body(b):
    return apply_collective(jax.lax.psum, jnp.tanh(b))


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(('data', 'model')), out_specs=P(('data', 'model')))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    return jax.jit(jax.vmap(block, spmd_axis_name='data'))(x), 2.0 * np.tanh(np.asarray(x))
