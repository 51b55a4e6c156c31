import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)


def scaled(logits, temperature):
    def body(block, eps=1e-3):
        return block / (temperature + eps)
    return jax.shard_map(body, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(logits)


def main():
    logits = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    temps = jnp.array([1.0, 2.0, 4.0, 8.0])
    out = jax.jit(jax.vmap(scaled, spmd_axis_name="data"))(logits, temps)
    ref = np.asarray(logits) / (np.asarray(temps)[:, None] + 1e-3)
    print("RESULT:", "match" if out.shape == ref.shape and np.allclose(out, ref) else "mismatch")


main()
