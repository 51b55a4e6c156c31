"""writes10 w13: `data_axis = 'model'` in the class body is shadowed by a `@property` of the same name
defined after it (returning 'data'); read as the class attribute, the program was 'All checks passed!'
while JCFG.data_axis raises."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class TrainConfig:
    data_axis = 'model'

    @property
    def data_axis(self):
        return 'data'


CFG = TrainConfig()



def block(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(CFG.data_axis), out_specs=P(CFG.data_axis))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    pass
    return jax.vmap(block, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
