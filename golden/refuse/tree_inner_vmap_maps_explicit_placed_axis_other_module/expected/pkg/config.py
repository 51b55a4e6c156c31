import jax

mesh = jax.make_mesh((2, 2, 2), ('data', 'model', 'pipe'))
