import jax.numpy as jnp
import numpy as np

from pkg import train


def main():
    xs = jnp.arange(4 * 8 * 16, dtype=jnp.float32).reshape(4, 8, 16) % 7 - 3.0
    a = np.asarray(xs)
    blocks = a.reshape(4, 4, 2, 16).sum(axis=1)
    return train.step(xs), np.concatenate([blocks] * 4, axis=1) + 4.0 * a
