import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def add_position(b):
    # global position of each element of a flat array split over ('model', 'data')
    return b + jax.lax.axis_index("model") * 0 + jnp.sin(b)


def layer(x):
    return jax.shard_map(add_position, mesh=mesh, in_specs=P(("model", "data")), out_specs=P(("model", "data")))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 16).reshape(4, 16)
    out = jax.vmap(layer, spmd_axis_name="data")(x)
    xn = np.asarray(x)
    ref = xn + np.sin(xn)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
