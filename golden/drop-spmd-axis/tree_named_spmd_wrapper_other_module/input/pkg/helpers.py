import jax


def batched(fn, spmd_axis_name='data'):
    v = jax.vmap(fn, spmd_axis_name=spmd_axis_name)
    return v
