"""m11 with a second call passing another config (`member_out(xs, ALT)`, ALT.data is "model"): both calls collide? the first does (JAX raises)."""
import dataclasses
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P, AxisType


@dataclasses.dataclass(frozen=True)
class Cfg:
    data: str = 'data'
    model: str = 'model'


CFG = Cfg()
ALT = Cfg(data="model", model="data")
MESH = jax.make_mesh((2, 4), (CFG.data, CFG.model), axis_types=(AxisType.Auto,) * 2)


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P(CFG.data), out_specs=P(CFG.data))(x)


def member_out(xs, cfg=CFG):
    return jax.vmap(layer, spmd_axis_name=cfg.data)(xs)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    return (member_out(xs), member_out(xs, ALT)), (np.asarray(xs) * 2.0, np.asarray(xs) * 2.0)
