import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def n_data_shards():
    dp, mp = jax.sharding.get_abstract_mesh().axis_sizes
    return dp


def block(x):
    return jax.shard_map(lambda b: b + 1.0, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    with jax.set_mesh(mesh):
        n = n_data_shards() * 2
        xs = jnp.zeros((n, 8))
        out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(xs)
    print("RESULT:", "match" if out.shape == (4, 8) and np.allclose(out, 1.0) else "mismatch")


main()
