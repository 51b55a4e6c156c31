import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def block(x):
    return jax.shard_map(lambda b: b * b, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    xs = jnp.arange(32.0).reshape(4, 8)
    with jax.set_mesh(mesh):
        out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(xs)
    print("RESULT:", "match" if np.allclose(out, np.arange(32.0).reshape(4, 8) ** 2) else "mismatch")


main()
