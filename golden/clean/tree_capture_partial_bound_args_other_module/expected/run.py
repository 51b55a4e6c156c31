import jax.numpy as jnp
import numpy as np

from pkg import train


def main():
    xs0 = np.arange(32, dtype=np.float32).reshape(4, 8) / 8.0
    w = jnp.float32(3.0)
    reference = xs0 * 3.0 + 0.5
    return (train.apply(jnp.asarray(xs0), w), train.apply_inline(jnp.asarray(xs0), w)), (reference, reference)
