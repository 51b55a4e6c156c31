import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def affine(params, x):
    def body(xb):
        return xb * params["scale"] + params["shift"]
    return jax.shard_map(body, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


def main():
    params = {"scale": jnp.arange(1.0, 5.0), "shift": jnp.arange(4.0) * 10}
    xs = jnp.ones((4, 8))
    out = jax.jit(jax.vmap(affine, spmd_axis_name="data"))(params, xs)
    ref = np.ones((4, 8)) * np.arange(1.0, 5.0)[:, None] + (np.arange(4.0) * 10)[:, None]
    print("RESULT:", "match" if out.shape == ref.shape and np.allclose(out, ref) else f"mismatch {out.shape}")


main()
