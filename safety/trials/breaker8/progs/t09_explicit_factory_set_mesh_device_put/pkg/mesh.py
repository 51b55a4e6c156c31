import jax
from jax.sharding import AxisType


def build_mesh(shape=(2, 4), names=("data", "model")):
    """Explicit-axes mesh for training."""
    return jax.make_mesh(shape, names, axis_types=(AxisType.Explicit,) * len(names))
