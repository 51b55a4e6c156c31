"""A jitted, vmapped layer pins its activations to P('x') with a sharding constraint; spmd axis 'x'."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return jnp.tanh(b)


def layer(v):
    h = jax.lax.with_sharding_constraint(v * 0.1, NamedSharding(mesh, P('x')))
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(h)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.jit(jax.vmap(layer, spmd_axis_name='x'))(xs)
    reference = np.tanh(np.asarray(xs) * 0.1)
    return result, reference
