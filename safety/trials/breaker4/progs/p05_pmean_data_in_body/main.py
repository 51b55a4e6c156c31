import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
DATA = "data"


def normalize(x):
    def body(b):
        mu = jax.lax.pmean(b.mean(axis=0), "model")
        return b - mu
    return jax.shard_map(body, mesh=mesh, in_specs=P("model", None), out_specs=P("model", None),
                         check_vma=False)(x)


def sync_stats(x):
    # average a statistic over the data-parallel replicas
    return jax.shard_map(lambda s: jax.lax.pmean(s, DATA), mesh=mesh, in_specs=P(), out_specs=P(),
                         check_vma=False)(x)


def step(x):
    y = normalize(x)
    return sync_stats((y ** 2).sum())


def main():
    xs = jnp.arange(8 * 8 * 4, dtype=jnp.float32).reshape(8, 8, 4) ** 1.5
    out = jax.jit(jax.vmap(step, spmd_axis_name=DATA))(xs)
    ref = np.array([((x - x.mean(axis=0)) ** 2).sum() for x in np.asarray(xs)])
    print("RESULT:", "match" if np.allclose(out, ref, rtol=1e-4) else f"mismatch {out} {ref}")


main()
