from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


@dataclass(frozen=True)
class MeshConfig:
    data_axis: str = "data"
    model_axis: str = "model"
    shape: tuple = (2, 4)


cfg = MeshConfig()
mesh = Mesh(np.array(jax.devices()).reshape(cfg.shape), (cfg.data_axis, cfg.model_axis))


def scale_rows(x):
    return jax.shard_map(lambda b: b * 3.0, mesh=mesh, in_specs=P(cfg.data_axis), out_specs=P(cfg.data_axis))(x)


def main():
    xs = jnp.arange(32.0).reshape(4, 8)
    out = jax.vmap(scale_rows, spmd_axis_name=cfg.data_axis)(xs)
    print("RESULT:", "match" if np.allclose(out, np.arange(32.0).reshape(4, 8) * 3) else "mismatch")


main()
