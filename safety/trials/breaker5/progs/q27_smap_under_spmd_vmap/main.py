import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Explicit,) * 2)

act = jax.smap(jnp.tanh, in_axes=0, out_axes=0, axis_name="data")


def block(x):
    return act(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    with jax.set_mesh(mesh):
        out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(x)
    ref = np.tanh(np.asarray(x))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
