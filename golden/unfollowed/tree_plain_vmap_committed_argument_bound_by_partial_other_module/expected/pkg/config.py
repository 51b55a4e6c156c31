import jax

mesh = jax.make_mesh((8,), ('data',))
