import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "fsdp"), axis_types=(AxisType.Auto,) * 2)
print("mesh axes:", len(mesh.axis_names))


def center(col):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(col)


def main():
    # features x examples: the batch is dimension 1 (6 examples of 8 features)
    x = jnp.linspace(-1, 1, 8 * 6).reshape(8, 6)
    out = jax.jit(jax.vmap(center, in_axes=1, out_axes=1, spmd_axis_name="data"))(x)
    xn = np.asarray(x)
    blocks = xn.reshape(2, 4, 6)
    ref = (blocks - blocks.mean(axis=1, keepdims=True)).reshape(8, 6)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
