import jax


def inner(fn, **kw):
    return jax.vmap(fn, **kw)


def batched(fn, **kw):
    return inner(fn, **kw)
