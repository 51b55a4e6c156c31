import jax


def batched(fn, **kw):
    return jax.vmap(fn, **kw)
