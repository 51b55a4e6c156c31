"""'x' and 'y' split one dimension (`P(('x', 'y'))`, 'x' major) and the body averages over 'y': stripping 'x'
(`P('y')`) would make each 'y' block hold other elements of the dimension, so the pmean would average other
elements. The strip is unsafe, its reason names the pmean and the shared entry: nothing applied without
--unsafe-fixes."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def layer(x):
    return jax.shard_map(
        lambda b: b - jax.lax.pmean(b, 'y'), mesh=mesh, in_specs=P(('x', 'y')), out_specs=P(('x', 'y'))
    )(x)


def main():
    xs = jnp.arange(4 * 16, dtype=jnp.float32).reshape(4, 16) ** 1.5 / 50.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    blocks = np.asarray(xs).reshape(4, 2, 4, 2)  # (batch, 'x' block, 'y' block, element)
    reference = (blocks - blocks.mean(axis=2, keepdims=True)).reshape(4, 16)
    return result, reference
