import jax

vmap = jax.vmap  # one place to swap in a checked vmap
