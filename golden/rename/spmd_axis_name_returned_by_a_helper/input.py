import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))


def pick(names, i):
    return names[i]


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(v)


def main():
    x = jnp.arange(64.0).reshape(8, 8)
    # a helper picks the data axis, 'x', out of the mesh's names
    result = jax.vmap(block, spmd_axis_name=pick(("x", "y"), 0))(x)
    reference = x * 2.0
    return result, reference
