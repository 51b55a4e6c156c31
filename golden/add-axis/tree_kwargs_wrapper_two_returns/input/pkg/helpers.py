import jax


def batched(fn, chunked=False, **kw):
    if chunked:
        return jax.vmap(fn, in_axes=1, out_axes=1, **kw)
    return jax.vmap(fn, **kw)
