import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def place_params(w):
    # fully shard a 2-D weight over every mesh axis
    return jax.device_put(w, NamedSharding(MESH, P(*MESH.axis_names)))


def act(x):
    return jax.shard_map(jax.nn.relu, mesh=MESH, in_specs=P("data", None), out_specs=P("data", None))(x)


def forward(w, x):
    return act(x @ w)


def main():
    w = place_params(jnp.ones((8, 8)) * 0.5)
    xs = jnp.arange(4 * 2 * 8, dtype=jnp.float32).reshape(4, 2, 8) - 30.0
    out = jax.vmap(forward, in_axes=(None, 0), spmd_axis_name="data")(w, xs)
    ref = np.maximum(np.asarray(xs) @ np.asarray(w), 0)
    print("RESULT:", "match" if np.allclose(out, ref) else "mismatch")


main()
