"""writes10 w44/w47: the field of `CFG` (default 'model') is written through `CFG.__dict__.update(...)`;
read as the default, the program was 'All checks passed!' while JCFG.data_axis raises."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


@dataclasses.dataclass
class TrainConfig:
    data_axis: str = 'model'


CFG = TrainConfig()



def block(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(CFG.data_axis), out_specs=P(CFG.data_axis))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    CFG.__dict__.update(data_axis='data')
    return jax.vmap(block, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
