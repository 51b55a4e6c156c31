import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "fsdp"), axis_types=(AxisType.Auto,) * 2)
print("mesh axes:", len(mesh.axis_names))


def center(row):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(row)


per_example = jax.vmap(center, spmd_axis_name="data")


def main():
    # 2 groups of 6 examples of 8 features: the spmd vmap maps the 6
    x = jnp.linspace(-1, 1, 2 * 6 * 8).reshape(2, 6, 8)
    out = jax.jit(jax.vmap(per_example))(x)
    blocks = np.asarray(x).reshape(2, 6, 2, 4)
    ref = (blocks - blocks.mean(axis=-1, keepdims=True)).reshape(2, 6, 8)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
