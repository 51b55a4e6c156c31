from jax import lax


def helper(b):
    # a lax.cond on the block: under an spmd vmap with check_vma=True it raises `pvary` (hazard H2)
    return lax.cond(b.sum() > 1.0, lambda t: t * 2.0, lambda t: t - 1.0, b)
