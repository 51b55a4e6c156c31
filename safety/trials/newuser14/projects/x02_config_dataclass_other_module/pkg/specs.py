from jax.sharding import PartitionSpec as P

from pkg.config import CFG


def activation_spec():
    return P(CFG.data_axis, CFG.model_axis)
