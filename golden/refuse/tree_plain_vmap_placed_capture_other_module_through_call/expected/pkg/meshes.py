import jax

mesh = jax.make_mesh((2, 4), ('x', 'y'))
