import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "fsdp"), axis_types=(AxisType.Auto,) * 2)
print("mesh axes:", len(mesh.axis_names))


def center(batch, bias):
    row = batch["tokens"]
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(row) + bias


def main():
    batch = {"tokens": jnp.linspace(-1, 1, 6 * 8).reshape(6, 8)}
    bias = jnp.zeros((8, 8))  # unmapped: 8 rows, the batch is 6
    out = jax.jit(jax.vmap(center, in_axes=({"tokens": 0}, None), spmd_axis_name="data"))(batch, bias[0])
    blocks = np.asarray(batch["tokens"]).reshape(6, 2, 4)
    ref = (blocks - blocks.mean(axis=-1, keepdims=True)).reshape(6, 8)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
