import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def head(q):
    return jax.shard_map(jnp.tanh, mesh=mesh, in_specs=P("model"), out_specs=P("model"), check_vma=False)(q)


def attend(qs):
    return jax.vmap(head)(qs)  # over heads


def main():
    x = jnp.linspace(-1, 1, 4 * 3 * 8).reshape(4, 3, 8)
    out = jax.jit(jax.vmap(attend, spmd_axis_name="data"))(x)
    ref = np.tanh(np.asarray(x))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
