import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def attention_scores(q, k):
    scale = q.shape[-1] ** -0.5          # static: a Python float, not a batched value
    dtype = q.dtype

    def body(qb, kb):
        return (qb * kb * scale).astype(dtype)
    return jax.shard_map(body, mesh=mesh, in_specs=(P(None, "model"), P(None, "model")),
                         out_specs=P(None, "model"))(q, k)


def main():
    q = jnp.linspace(-1, 1, 4 * 2 * 16).reshape(4, 2, 16)
    k = jnp.linspace(1, 2, 4 * 2 * 16).reshape(4, 2, 16)
    out = jax.jit(jax.vmap(attention_scores, spmd_axis_name="data"))(q, k)
    ref = np.asarray(q) * np.asarray(k) * 16 ** -0.5
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-6) else "mismatch")


main()
