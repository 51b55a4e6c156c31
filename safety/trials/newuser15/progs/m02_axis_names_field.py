"""Mesh axis names from a tuple field of the config; spmd_axis_name = cfg.axes[0]; collision."""
import dataclasses
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P, AxisType


@dataclasses.dataclass(frozen=True)
class Cfg:
    axes: tuple = ('data', 'model')
    shape: tuple = (2, 4)


CFG = Cfg()
MESH = jax.make_mesh(CFG.shape, CFG.axes, axis_types=(AxisType.Auto,) * 2)


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P(CFG.axes[0]), out_specs=P(CFG.axes[0]))(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    return jax.vmap(layer, spmd_axis_name=CFG.axes[0])(xs), np.asarray(xs) * 2.0
