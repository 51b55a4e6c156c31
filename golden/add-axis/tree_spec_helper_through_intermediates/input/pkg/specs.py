"""How activations are laid out over the mesh."""
from jax.sharding import PartitionSpec as P

from pkg.config import DATA, MODEL


def activation_spec():
    return P(DATA, MODEL)
