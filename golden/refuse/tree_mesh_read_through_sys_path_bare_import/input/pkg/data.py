import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from .config import MESH, MODEL


def place(w):
    return jax.device_put(w, NamedSharding(MESH, P(None, MODEL)))
