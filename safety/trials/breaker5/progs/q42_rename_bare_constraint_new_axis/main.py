import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ("data", "fsdp", "model"), axis_types=(AxisType.Auto,) * 3)
jax.set_mesh(mesh)
print("axes:", len(mesh.axis_names))


def block(x):
    h = jax.lax.with_sharding_constraint(x * 2.0, P(("fsdp", "model")))
    return jax.shard_map(lambda b: b - b.mean(), in_specs=P("data"), out_specs=P("data"))(h)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(x)
    blocks = (2.0 * np.asarray(x)).reshape(4, 2, 4)
    ref = (blocks - blocks.mean(-1, keepdims=True)).reshape(4, 8)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
