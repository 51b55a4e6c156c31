import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from . import model
from .config import MODEL


def place(w):
    return jax.device_put(w, NamedSharding(model.get_mesh(), P(None, MODEL)))


def groups():
    return model.get_mesh().devices.shape[0]
