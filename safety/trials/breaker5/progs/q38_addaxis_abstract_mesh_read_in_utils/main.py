import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

from pkg.utils import data_parallel_size

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def block(x):
    y = jax.shard_map(jnp.tanh, mesh=MESH, in_specs=P("data"), out_specs=P("data"))(x)
    return y / data_parallel_size()


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    with jax.set_mesh(MESH):
        out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(x)
    ref = np.tanh(np.asarray(x)) / 2
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
