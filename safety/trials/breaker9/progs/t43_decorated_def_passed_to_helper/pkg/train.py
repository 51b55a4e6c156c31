import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate


def sharded(f):
    def wrapper(x):
        return jax.shard_map(f, mesh=MESH, in_specs=P("data"), out_specs=P("data"))(x)

    return wrapper


@sharded
def apply(x):
    return x * 2.0


def main():
    xs = jnp.ones((4, 8))
    out = accumulate(apply, xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0) else "mismatch")
