from jax import vmap  # noqa: F401
