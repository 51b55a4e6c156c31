import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
AX = 'x'


def body(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    opts = {"in_axes": 0}
    opts.update(spmd_axis_name=AX)
    result = jax.vmap(body, **opts)(x)
    reference = np.asarray(x) * 2.0
    return result, reference
