import jax


def accumulate(fn, xs, spmd_axis_name="data"):
    return jax.vmap(fn, spmd_axis_name=spmd_axis_name)(xs)
