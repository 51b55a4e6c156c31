"""The device mesh, built from the configuration."""
import jax
from jax.sharding import AxisType

from ens.config import CFG, ParallelConfig


def build_mesh(cfg: ParallelConfig = CFG, explicit: bool = False):
    kind = AxisType.Explicit if explicit else AxisType.Auto
    return jax.make_mesh(cfg.mesh_shape, (cfg.data, cfg.model), axis_types=(kind,) * 2)


MESH = build_mesh()
