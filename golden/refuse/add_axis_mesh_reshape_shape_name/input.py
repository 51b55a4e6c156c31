from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


@dataclass(frozen=True)
class MeshConfig:
    data_axis: str = 'x'
    model_axis: str = 'y'
    shape: tuple = (2, 4)


cfg = MeshConfig()
mesh = Mesh(np.array(jax.devices()).reshape(cfg.shape), (cfg.data_axis, cfg.model_axis))


def step(v):
    return jax.shard_map(lambda b: b * 3.0, mesh=mesh, in_specs=P(cfg.data_axis), out_specs=P(cfg.data_axis))(v)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(step, spmd_axis_name=cfg.data_axis)(x)
    reference = np.asarray(x) * 3.0
    return result, reference
