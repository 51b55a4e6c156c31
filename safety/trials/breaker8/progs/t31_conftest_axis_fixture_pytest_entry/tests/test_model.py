import jax
import jax.numpy as jnp
import numpy as np

from pkg.model import block


def test_per_example(batch_axis):
    x = jnp.zeros((8, 8))
    out = jax.vmap(block, spmd_axis_name=batch_axis)(x)
    assert np.allclose(out, 2.0)
