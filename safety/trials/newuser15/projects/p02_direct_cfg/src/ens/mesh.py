"""The device mesh, built from the configuration."""
import jax
from jax.sharding import AxisType

from ens.config import CFG

MESH = jax.make_mesh(CFG.mesh_shape, (CFG.data, CFG.model), axis_types=(AxisType.Auto,) * 2)
EMESH = jax.make_mesh(CFG.mesh_shape, (CFG.data, CFG.model), axis_types=(AxisType.Explicit,) * 2)
