"""Spec helper with a default config object that is not frozen and is changed before use (`CFG.data =
'model'` in main): the spec names 'model' at run time; spmd axis 'data': JAX runs. A reader of the default must
not say SPMD001."""
import dataclasses
import jax, jax.numpy as jnp, numpy as np
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
    return jax.vmap(layer, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
