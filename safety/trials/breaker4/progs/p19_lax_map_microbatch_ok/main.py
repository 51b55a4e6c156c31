import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def mb_loss(mb):
    sq = jax.shard_map(lambda b: jax.lax.psum((b ** 2).sum(), "model"), mesh=mesh,
                       in_specs=P("model"), out_specs=P())(mb)
    return sq


def accumulate(micro_batches):
    return jax.lax.map(mb_loss, micro_batches).sum()


def main():
    xs = jnp.linspace(-1, 1, 4 * 3 * 8).reshape(4, 3, 8)
    out = jax.jit(jax.vmap(accumulate, spmd_axis_name="data"))(xs)
    ref = (np.asarray(xs) ** 2).sum(axis=(1, 2))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-4) else f"mismatch {out} {ref}")


main()
