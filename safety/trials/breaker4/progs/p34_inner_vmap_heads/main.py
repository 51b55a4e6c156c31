import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def head(x):
    return jax.shard_map(lambda b: jax.lax.psum(b.sum(), "model") + b, mesh=mesh,
                         in_specs=P("model"), out_specs=P("model"))(x)


def multihead(x):
    return jax.vmap(head)(x)   # over heads


def main():
    xs = jnp.linspace(0, 1, 4 * 2 * 8).reshape(4, 2, 8)
    out = jax.jit(jax.vmap(multihead, spmd_axis_name="data"))(xs)
    x = np.asarray(xs)
    ref = x + x.sum(-1, keepdims=True)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
