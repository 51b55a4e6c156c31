import jax


def batched(fn, **kw):
    kw.setdefault('in_axes', 0)
    return jax.vmap(fn, **kw)
