from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


@partial(jax.shard_map, mesh=mesh, in_specs=(P(), P(None, "model"), P("model", None)), out_specs=P())
def mlp(x, w1, w2):
    h = jax.nn.gelu(x @ w1)
    return jax.lax.psum(h @ w2, "model")


def loss(params, x, y):
    pred = mlp(x, params["w1"], params["w2"])
    return jnp.mean((pred - y) ** 2)


@jax.jit
def per_example_grads(params, xs, ys):
    return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0), spmd_axis_name="data")(params, xs, ys)


def main():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    params = {"w1": jax.random.normal(k1, (8, 16)) * 0.3, "w2": jax.random.normal(k2, (16, 8)) * 0.3}
    xs = jax.random.normal(k3, (8, 4, 8))
    ys = jnp.ones((8, 4, 8))
    g = per_example_grads(params, xs, ys)

    def ref_loss(p, x, y):
        return jnp.mean((jax.nn.gelu(x @ p["w1"]) @ p["w2"] - y) ** 2)
    r = jax.vmap(jax.grad(ref_loss), in_axes=(None, 0, 0))(params, xs, ys)
    ok = all(np.allclose(g[k], r[k], atol=1e-4) for k in g)
    print("RESULT:", "match" if ok else "mismatch")


main()
