import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


def block(x, w):
    s = w * 2.0
    return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)
