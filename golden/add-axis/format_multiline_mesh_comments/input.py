import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
mesh = Mesh(
    np.array(jax.devices()).reshape(
        2,  # data
        4,  # model
    ),
    (
        'x',  # data
        'y',  # model
    ),
)
def f(v):
    return jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
jax.vmap(f, spmd_axis_name='x')
