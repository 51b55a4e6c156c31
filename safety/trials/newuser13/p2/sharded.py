"""The migration: pmap -> shard_map over a 1-D mesh, then vmapped over ensemble members."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ("batch",))


@partial(shard_map, mesh=mesh, in_specs=P("batch"), out_specs=P("batch"))
def normalize(x):
    mu = jax.lax.pmean(x.mean(), "batch")
    return x - mu


def ensemble(xs):
    # one normalisation per ensemble member, members placed over the same devices
    return jax.vmap(normalize, spmd_axis_name="batch")(xs)


def reference(xs):
    x = np.asarray(xs)
    return x - x.mean(axis=1, keepdims=True)


if __name__ == "__main__":
    xs = jnp.arange(8 * 16, dtype=jnp.float32).reshape(8, 16) ** 1.5
    got = ensemble(xs)
    print("OK" if np.allclose(got, reference(xs), atol=1e-3) else "MISMATCH", float(np.abs(got).sum()))
