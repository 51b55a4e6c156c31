import jax


def data_parallel_size():
    """The data-parallel degree of the current mesh (its first axis), for loss normalisation."""
    return jax.sharding.get_abstract_mesh().axis_sizes[0]
