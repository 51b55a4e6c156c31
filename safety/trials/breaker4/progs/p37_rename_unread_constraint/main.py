import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from lm.config import HIDDEN_SPEC

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def block(x):
    h = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    h2 = jnp.outer(h, h)
    return jax.lax.with_sharding_constraint(h2, NamedSharding(mesh, P(*HIDDEN_SPEC))).sum(0)


def main():
    xs = jnp.linspace(0, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(xs)
    x = np.asarray(xs) * 2
    ref = np.stack([np.outer(r, r).sum(0) for r in x])
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
