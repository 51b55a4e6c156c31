import dataclasses

import jax
from jax.sharding import AxisType


@dataclasses.dataclass(frozen=True)
class MeshConfig:
    shape: tuple = (2, 4)
    axes: tuple = ("data", "model")


def make_mesh(cfg: MeshConfig):
    return jax.make_mesh(cfg.shape, cfg.axes, axis_types=(AxisType.Auto,) * len(cfg.axes))


CFG = MeshConfig()
MESH = make_mesh(CFG)
