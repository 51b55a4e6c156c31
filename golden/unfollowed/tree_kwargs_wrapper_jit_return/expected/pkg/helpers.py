import jax


def batched(fn, jit=False, **kw):
    if jit:
        return jax.jit(jax.vmap(fn, **kw))
    return jax.vmap(fn, **kw)
