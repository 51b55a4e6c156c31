import jax.numpy as jnp
import numpy as np

from pkg.evaluate import centre
from pkg.model import forward


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) + 1.0
    c = centre(xs[0])
    x0 = np.asarray(xs[0])
    ref_c = np.concatenate([x0[:4] - x0[:4].mean(), x0[4:] - x0[4:].mean()])
    result = jnp.concatenate([forward(xs).ravel(), c])
    return result, np.concatenate([(np.asarray(xs) * 2.0).ravel(), ref_c])
