import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

AXES = ("data", "model")
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), AXES)


def place_weight(w):
    return jax.device_put(w, NamedSharding(mesh, P(*AXES)))


def block(x):
    return jax.shard_map(lambda b: b * 4.0, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    w = place_weight(jnp.ones((8, 8)))
    xs = jnp.arange(32.0).reshape(4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(xs) + w.sum()
    print("RESULT:", "match" if np.allclose(out, np.arange(32.0).reshape(4, 8) * 4 + 64) else "mismatch")


main()
