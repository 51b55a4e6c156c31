"""A plain vmap applied as a decorator (`@functools.partial(jax.vmap, in_axes=0)`) over a batch placed on
Explicit mesh axis 'data', reaching a shard_map whose specs name only 'model' (the example placed `P(None,
'model')` as its in_spec says): no spec names the mapped-away axis; runs and matches, clean."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ('data', 'model'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P(None, 'model'), out_specs=P(None, 'model'))(x)


@functools.partial(jax.vmap, in_axes=0)
def apply(x):
    return block(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('data', None, 'model')))
    return apply(xs), xs0 * 2.0 + 1.0
