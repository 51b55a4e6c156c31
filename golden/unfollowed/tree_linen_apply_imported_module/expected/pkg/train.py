import jax
import jax.numpy as jnp
import numpy as np

from pkg.layers import Block


def main():
    module = Block(8)
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    params = module.init(jax.random.key(0), x[0])
    out = jax.jit(jax.vmap(lambda v: module.apply(params, v), spmd_axis_name='data'))(x)
    k = np.asarray(params['params']['Dense_0']['kernel'])
    b = np.asarray(params['params']['Dense_0']['bias'])
    return out, np.maximum(np.asarray(x) @ k + b, 0)
