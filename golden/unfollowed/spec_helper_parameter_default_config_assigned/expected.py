import dataclasses
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType


@dataclasses.dataclass
class Cfg:
    data: str = 'data'


CFG = Cfg()
MESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def rows(cfg=CFG):
    return P(None, cfg.data)


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=rows(), out_specs=rows())(x)


def main():
    CFG.data = 'model'
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    result = jax.vmap(layer, spmd_axis_name='data')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
