"""A plain jax.vmap over an input placed on an Explicit mesh at its last dimension only
(`P(None, None, 'data')`: the batch dimension on no axis), whose function reaches the shard_map through
`jax.lax.map(block, x, batch_size=2)`; the body closes over `m = x.mean() + 2.0`, computed from each slice
`jax.lax.map` passes. The value still comes from the placed input: JAX refuses the capture (`Closing over inputs
to shard_map where the input is sharded on Explicit axes`), as with a plain call of `block`
(safety/measurements/lax_map_hop.py; fuzz seed 420293, an SPMD910 record before). Lifting it is not measured:
nothing applied."""
import functools

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(x):
    m = x.mean() + 2.0

    @functools.partial(jax.shard_map, mesh=mesh, in_specs=P('data'), out_specs=P('data'), check_vma=False)
    def body(b):
        return (b - b.mean()) * m

    return body(x)


@jax.vmap
def apply(x):
    return jax.lax.map(block, x, batch_size=2)


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
    xs = jax.device_put(xs0, NamedSharding(mesh, P(None, None, 'data')))
    halves = xs0.reshape(4, 8, 2, 4)
    reference = ((halves - halves.mean(-1, keepdims=True)) * (xs0.mean(-1) + 2.0)[..., None, None]).reshape(4, 8, 8)
    return apply(xs), reference
