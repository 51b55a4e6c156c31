"""The same body as golden/clean/array_closure_broadcast_higher_rank, but W has the rank of the operand (2):
`b * W` fails with ManualAxisType, so SPMD003 is reported and W is lifted into a `P()` operand."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = jnp.linspace(0.5, 1.5, 32, dtype=jnp.float32).reshape(4, 8)


def block(x):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * W, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(8, 4, 8) - 85.0) / 64.0
    xs = jnp.asarray(xs0)
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    return result, (xs0 * 2.0 + 1.0) * np.asarray(W)
