"""PartitionSpec helpers (what used to be pjit's in_axis_resources)."""
from jax.sharding import PartitionSpec as P

from ens.config import CFG


def rows(cfg=CFG):
    return P(cfg.data, None)


def cols(cfg=CFG):
    return P(None, cfg.model)


def tile(cfg=CFG):
    return P(cfg.data, cfg.model)


def model_only(cfg=CFG):
    return P(None, cfg.model)
