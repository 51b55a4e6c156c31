import jax

MESH = jax.make_mesh((2, 4), ('x', 'y'))
