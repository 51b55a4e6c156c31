import jax
import jax.numpy as jnp
import numpy as np

from pkg.model import Layer


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    layer = Layer().clone(AXIS='data')
    return jax.vmap(lambda x: layer.apply({}, x), spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
