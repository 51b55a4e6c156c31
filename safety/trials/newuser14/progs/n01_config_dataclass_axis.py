"""spmd_axis_name read from a frozen config dataclass; specs built by a helper; collision (JAX raises)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType


@dataclasses.dataclass(frozen=True)
class ParallelConfig:
    data_axis: str = 'data'
    model_axis: str = 'model'


CFG = ParallelConfig()
MESH = jax.make_mesh((2, 4), (CFG.data_axis, CFG.model_axis), axis_types=(AxisType.Auto,) * 2)


def row_spec(axis):
    return P(axis)


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=row_spec(CFG.data_axis), out_specs=row_spec(CFG.data_axis))(x)


def main():
    xs = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    return jax.vmap(layer, spmd_axis_name=CFG.data_axis)(xs), np.asarray(xs) * 2.0
