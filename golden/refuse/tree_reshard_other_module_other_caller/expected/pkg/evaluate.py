import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
from jax.sharding import AxisType

from pkg.ops import place

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit,) * 2)


def main():
    x = jnp.arange(8 * 4, dtype=jnp.float32).reshape(8, 4)
    with jax.set_mesh(mesh):
        y = place(x)
        out = jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(y)
    return out, np.asarray(x) * 2.0 + 1.0
