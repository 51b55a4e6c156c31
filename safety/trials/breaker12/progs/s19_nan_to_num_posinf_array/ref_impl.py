import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))

LIMITS = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)


def block(v):
    return jax.shard_map(lambda b: jnp.nan_to_num(b / 0.0, posinf=LIMITS), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def reference(xs):
    return np.asarray(jax.vmap(block)(xs))
