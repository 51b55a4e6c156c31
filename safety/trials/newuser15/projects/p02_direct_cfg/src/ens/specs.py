"""PartitionSpec helpers (what used to be pjit's in_axis_resources), reading the one configuration."""
from jax.sharding import PartitionSpec as P

from ens.config import CFG


def rows():
    return P(CFG.data, None)


def cols():
    return P(None, CFG.model)


def tile():
    return P(CFG.data, CFG.model)


def model_only():
    return P(None, CFG.model)
