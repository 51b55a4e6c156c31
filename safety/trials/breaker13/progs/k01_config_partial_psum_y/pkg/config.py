import functools
import jax

MODEL_AXIS = 'y'
reduce_model = functools.partial(jax.lax.psum, axis_name=MODEL_AXIS)
