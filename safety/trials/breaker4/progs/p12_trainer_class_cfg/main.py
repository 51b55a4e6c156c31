from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


@dataclass(frozen=True)
class Config:
    data_axis: str = "data"
    model_axis: str = "model"


class Trainer:
    def __init__(self, cfg: Config, mesh: Mesh):
        self.cfg = cfg
        self.mesh = mesh

    def layer(self, x):
        spec = P(self.cfg.data_axis)
        return jax.shard_map(lambda b: b + 1.0, mesh=self.mesh, in_specs=spec, out_specs=spec)(x)

    def step(self, xs):
        return jax.jit(jax.vmap(self.layer, spmd_axis_name=self.cfg.data_axis))(xs)


def main():
    cfg = Config()
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), (cfg.data_axis, cfg.model_axis))
    out = Trainer(cfg, mesh).step(jnp.zeros((4, 8)))
    print("RESULT:", "match" if np.allclose(out, 1.0) else "mismatch")


main()
