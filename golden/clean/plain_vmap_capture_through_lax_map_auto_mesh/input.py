"""The same program as refuse/plain_vmap_capture_through_lax_map_batch_size on an Auto mesh: a plain jax.vmap over
an input placed `P(None, None, 'data')`, reaching the shard_map through `jax.lax.map(block, x, batch_size=2)`, the
body closing over `m = x.mean() + 2.0`. On an Auto mesh the capture runs and matches (measured:
safety/measurements/lax_map_hop.py), placed or not: no finding."""
import functools

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto, AxisType.Auto))


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
