import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def data_parallel_size():
    """How many data-parallel replicas the current mesh has (its first axis)."""
    return jax.sharding.get_abstract_mesh().axis_sizes[0]


def block(x):
    y = jax.shard_map(jnp.tanh, in_specs=P("data"), out_specs=P("data"))(x)
    return y / data_parallel_size()
