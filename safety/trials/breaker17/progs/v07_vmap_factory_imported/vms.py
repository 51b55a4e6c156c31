import functools
import jax

VM = functools.partial(jax.vmap, spmd_axis_name='x')
