"""Layers written for the context mesh: no `mesh=` argument, the mesh comes from `jax.set_mesh`."""
import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def rmsnorm(x):
    def body(b):
        return b * jax.lax.rsqrt(jnp.mean(b * b, axis=-1, keepdims=True) + 1e-6)
    return jax.shard_map(body, in_specs=P("dp", None), out_specs=P("dp", None))(x)


@jax.shard_map(in_specs=P("dp"), out_specs=P("dp"))
def scale(b):
    return b * 3.0
MESH = jax.make_mesh((4, 2), ("dp", "tp"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def step(x):
    return scale(rmsnorm(x).sum(-1))


def main():
    xs = jax.random.normal(jax.random.key(0), (2, 8, 4))
    with jax.set_mesh(MESH):
        got = jax.vmap(step, spmd_axis_name="dp")(xs)
    x = np.asarray(xs)
    ref = (x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6)).sum(-1) * 3.0
    print("OK" if np.allclose(got, ref, atol=1e-4) else "MISMATCH", float(np.abs(got).sum()))


if __name__ == "__main__":
    main()
