import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def per_host_batch(global_batch):
    dp, mp = mesh.axis_sizes
    return global_batch // dp


def block(x):
    return jax.shard_map(lambda b: b * 0.5, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    n = per_host_batch(8)
    print("per host", n)
    xs = jnp.arange(n * 8.0).reshape(n, 8)
    out = jax.vmap(block, spmd_axis_name="data")(xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 0.5) else "mismatch")


main()
