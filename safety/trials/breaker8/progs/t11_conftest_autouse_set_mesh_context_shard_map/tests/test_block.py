import jax
import jax.numpy as jnp
import numpy as np

from pkg.model import block


def test_block_per_example():
    x = jnp.linspace(-1, 1, 8 * 8).reshape(8, 8)
    out = jax.vmap(block, spmd_axis_name="data")(x)
    assert np.allclose(out, np.asarray(x) * 4.0)
