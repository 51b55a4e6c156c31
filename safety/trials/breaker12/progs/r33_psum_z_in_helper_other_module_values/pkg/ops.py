import jax


def add_total(v):
    return v + jax.lax.psum(v.sum(), 'z')
