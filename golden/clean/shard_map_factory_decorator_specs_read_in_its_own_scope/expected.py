"""The decorator spelling of clean/shard_map_factory_specs_read_in_its_own_scope: `@smap` over a `def` inside a
function that binds its own `AX = 'y'`, while the module-level factory's specs read the module's `AX = 'x'`.
The vmap's 'y' does not collide (the program runs and matches); read in the decorated function's scope, the
specs named 'y', and the SAFE rename onto 'x' made the program raise."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
AX = 'x'
smap = partial(jax.shard_map, mesh=mesh, in_specs=P(AX), out_specs=P(AX))


def main():
    AX = 'y'

    @smap
    def double(b):
        return b * 2.0

    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(double, spmd_axis_name=AX)(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
