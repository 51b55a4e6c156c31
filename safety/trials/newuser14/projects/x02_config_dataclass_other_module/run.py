import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import CFG
from pkg.layers import dense


def main():
    xs = jnp.arange(2 * 4 * 8, dtype=jnp.float32).reshape(2, 4, 8)
    return jax.vmap(dense, spmd_axis_name=CFG.data_axis)(xs), np.asarray(xs) * 2.0


if __name__ == '__main__':
    print(main()[0].shape)
