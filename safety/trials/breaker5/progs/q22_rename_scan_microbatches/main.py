import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "fsdp"), axis_types=(AxisType.Auto,) * 2)
print("mesh axes:", len(mesh.axis_names))
MICROBATCH = 6


def center(row):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(row)


batched_center = jax.vmap(center, spmd_axis_name="data")


@jax.jit
def run(xs):
    def step(carry, mb):
        y = batched_center(mb)
        return carry + y.sum(), y
    return jax.lax.scan(step, 0.0, xs.reshape(-1, MICROBATCH, 8))


def main():
    x = jnp.linspace(-1, 1, 12 * 8).reshape(12, 8)
    _, ys = run(x)
    blocks = np.asarray(x).reshape(12, 2, 4)
    ref = (blocks - blocks.mean(axis=-1, keepdims=True)).reshape(2, 6, 8)
    print("RESULT:", "match" if np.allclose(ys, ref, atol=1e-5) else "mismatch")


main()
