import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from pkg.model import Layer


def main():
    xs = jnp.arange(32.0).reshape(4, 8)
    layer = dataclasses.replace(Layer(), AXIS="model")
    out = jax.vmap(layer, spmd_axis_name="data")(xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0) else "mismatch")
