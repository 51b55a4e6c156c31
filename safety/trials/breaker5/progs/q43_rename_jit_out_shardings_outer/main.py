import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ("data", "fsdp", "model"), axis_types=(AxisType.Auto,) * 3)
print("axes:", len(mesh.axis_names))


def block(x):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    step = jax.jit(jax.vmap(block, spmd_axis_name="data"), out_shardings=NamedSharding(mesh, P("fsdp", "model")))
    out = step(x)
    blocks = np.asarray(x).reshape(4, 2, 4)
    ref = (blocks - blocks.mean(-1, keepdims=True)).reshape(4, 8)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
