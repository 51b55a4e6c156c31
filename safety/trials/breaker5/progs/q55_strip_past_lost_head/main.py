import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)


def mean_head(h):
    # average over the data replicas (a replicated block: the mean is the block itself)
    return jax.shard_map(lambda b: jax.lax.pmean(b, "data"), mesh=mesh, in_specs=P("model"), out_specs=P("model"),
                         check_vma=False)(h)


HEADS = {"mean": mean_head}


def forward(x, kind="mean"):
    h = jax.shard_map(lambda b: jnp.tanh(b), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    return HEADS[kind](h)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(forward, spmd_axis_name="data"))(x)
    ref = np.tanh(np.asarray(x))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
