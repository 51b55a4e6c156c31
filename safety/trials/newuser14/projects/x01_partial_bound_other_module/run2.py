from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from pkg import model


def main():
    w = jnp.float32(3.0)
    q = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    out = jax.vmap(partial(model.kernel2, w), spmd_axis_name="x")(q)
    return out, np.asarray(q) * 3.0


if __name__ == '__main__':
    print(main())
