import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def apply_bias(bias, x):
    return jax.shard_map(lambda b: b + bias.sum(), mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


def main():
    bias = jnp.arange(3.0)
    xs = jnp.zeros((4, 8))
    out = jax.jit(jax.vmap(apply_bias, in_axes=(None, 0), spmd_axis_name="data"))(bias, xs)
    print("RESULT:", "match" if np.allclose(out, 3.0) else "mismatch")


main()
