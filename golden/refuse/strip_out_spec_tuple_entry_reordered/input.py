"""in_specs `P(('x', 'y'))`, out_specs `P(('y', 'x'))`: the output puts the blocks back in another order (the
entry's order decides which block a device holds). Stripped of 'x' both read `P('y')` and nothing moves: the
values differ (safety/trials/breaker12 s42; on main the strip was safe: the stripped axis sat in the same
dimension of both specs)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(('x', 'y')), out_specs=P(('y', 'x')))(v)


def main():
    xs = jnp.arange(4 * 16, dtype=jnp.float32).reshape(4, 16)
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    # block (x=i, y=j) holds elements (4i + j) * 2 ... and lands at position (2j + i) * 2
    blocks = np.asarray(xs).reshape(4, 2, 4, 2) * 2.0
    reference = blocks.transpose(0, 2, 1, 3).reshape(4, 16)
    return result, reference
