import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))


def data_parallel(fn):
    return jax.shard_map(fn, mesh=mesh, in_specs=(P("data"), P("data")), out_specs=P("data"))


@data_parallel
def residual(pred, target):
    return pred - target


def loss(w, x, y):
    return jnp.sum(residual(x * w, y) ** 2)


def main():
    w = jnp.linspace(0.5, 1.5, 4)
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    y = jnp.cos(x)
    val, g = jax.vmap(jax.value_and_grad(loss), spmd_axis_name="data")(w, x, y)
    xn, yn, wn = np.asarray(x), np.asarray(y), np.asarray(w)[:, None]
    ok = np.allclose(val, ((xn * wn - yn) ** 2).sum(-1), atol=1e-4) and np.allclose(
        g, (2 * (xn * wn - yn) * xn).sum(-1), atol=1e-4)
    print("RESULT:", "match" if ok else "mismatch")


main()
