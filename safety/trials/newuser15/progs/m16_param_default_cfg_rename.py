"""m01 on a three-axis mesh with a free axis (`pod`): rename expected; the spec helper reads the config through a parameter default."""
import dataclasses
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P, AxisType


@dataclasses.dataclass(frozen=True)
class Cfg:
    data: str = 'data'
    model: str = 'model'


CFG = Cfg()
MESH = jax.make_mesh((2, 2, 2), ('pod', CFG.data, CFG.model), axis_types=(AxisType.Auto,) * 3)


def rows(cfg=CFG):
    return P(cfg.data, None)


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=rows(), out_specs=rows())(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    return jax.vmap(layer, spmd_axis_name=CFG.data)(xs), np.asarray(xs) * 2.0
