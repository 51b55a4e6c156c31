import jax


def per_example(fn, axis):
    """vmap fn over the leading batch dimension, the batch split over `axis`."""
    return jax.vmap(fn, spmd_axis_name=axis)
