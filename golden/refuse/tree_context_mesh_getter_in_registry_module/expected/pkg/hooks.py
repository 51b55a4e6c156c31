from jax.sharding import get_abstract_mesh

from pkg import registry


@registry.register
def replicas():
    return get_abstract_mesh().axis_sizes[0]
