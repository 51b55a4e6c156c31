import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def scaled_logits(logits, temperature):
    def body(block):
        return block / temperature
    return jax.shard_map(body, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(logits)


def main():
    logits = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    temps = jnp.array([1.0, 2.0, 4.0, 8.0])
    out = jax.jit(jax.vmap(scaled_logits, spmd_axis_name="data"))(logits, temps)
    ref = np.asarray(logits) / np.asarray(temps)[:, None]
    print("RESULT:", "match" if out.shape == ref.shape and np.allclose(out, ref) else f"mismatch {out.shape}")


main()
