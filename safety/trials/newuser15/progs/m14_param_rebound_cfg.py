"""Spec helper whose config parameter is rebound inside (`if cfg is None: cfg = CFG`): the usual Optional
default; collision (JAX raises)."""
import dataclasses
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P, AxisType


@dataclasses.dataclass(frozen=True)
class Cfg:
    data: str = 'data'


CFG = Cfg()
MESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def rows(cfg=None):
    if cfg is None:
        cfg = CFG
    return P(cfg.data)


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=rows(), out_specs=rows())(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    return jax.vmap(layer, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
