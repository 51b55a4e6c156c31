"""Original: golden/refuse/strip_collective_shared_dimension, in_specs=out_specs=P(('x', 'y')), body
`b - pmean(b, 'y')` under spmd_axis_name='x'. Applied: strip -> P('y'). Each 'y' block now holds other
elements of the dimension ('x' split it first), so the pmean averages other elements: the program runs and
returns different values."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def layer(x):
    return jax.shard_map(
        lambda b: b - jax.lax.pmean(b, 'y'), mesh=mesh, in_specs=P('y'), out_specs=P('y')
    )(x)


def main():
    xs = jnp.arange(4 * 16, dtype=jnp.float32).reshape(4, 16) ** 1.5 / 50.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    blocks = np.asarray(xs).reshape(4, 2, 4, 2)  # (batch, 'x' block, 'y' block, element)
    reference = (blocks - blocks.mean(axis=2, keepdims=True)).reshape(4, 16)
    return result, reference
