"""A team helper builds the spmd vmap from a config object (collision)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType


@dataclasses.dataclass(frozen=True)
class Cfg:
    data_axis: str = 'data'


mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def batched(fn, cfg):
    return jax.vmap(fn, spmd_axis_name=cfg.data_axis)


def layer(x):
    return jax.shard_map(lambda b: b + 2.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)


def main():
    xs = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    return batched(layer, Cfg())(xs), np.asarray(xs) + 2.0
