import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
from jax.sharding import AxisType

from pkg.ops import place

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit,) * 2)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(x, P('x', None))
        out = jax.vmap(place)(xs)
    return out, np.asarray(x) * 2.0
