"""m11 on a three-axis mesh (free `pod`): rename of `spmd_axis_name=cfg.data` read through a parameter default."""
import dataclasses
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P, AxisType


@dataclasses.dataclass(frozen=True)
class Cfg:
    data: str = 'data'
    model: str = 'model'


CFG = Cfg()
MESH = jax.make_mesh((2, 2, 2), ('pod', CFG.data, CFG.model), axis_types=(AxisType.Auto,) * 3)


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P(CFG.data), out_specs=P(CFG.data))(x)


def member_out(xs, cfg=CFG):
    return jax.vmap(layer, spmd_axis_name=cfg.data)(xs)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    return member_out(xs), np.asarray(xs) * 2.0
