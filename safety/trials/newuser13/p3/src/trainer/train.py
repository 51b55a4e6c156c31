"""Per-example gradients (for clipping), the examples placed over DATA."""
import jax
import jax.numpy as jnp
import numpy as np

from trainer import layers
from trainer.mesh import DATA


def loss(params, x, y):
    return jnp.mean((layers.mlp(params, x) - y) ** 2)


per_example_grads = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0), spmd_axis_name=DATA))


def init(key):
    k1, k2 = jax.random.split(key)
    return {"w1": jax.random.normal(k1, (8, 8)) * 0.3, "w2": jax.random.normal(k2, (8, 8)) * 0.3}


def main():
    params = init(jax.random.key(0))
    xs = jax.random.normal(jax.random.key(1), (4, 6, 8))
    ys = jax.random.normal(jax.random.key(2), (4, 6, 8))
    got = per_example_grads(params, xs, ys)
    ref = [jax.grad(loss)(params, xs[i], ys[i]) for i in range(4)]
    ok = all(np.allclose(got[k][i], ref[i][k], atol=1e-5) for k in params for i in range(4))
    print("OK" if ok else "MISMATCH", float(sum(np.abs(got[k]).sum() for k in got)))


if __name__ == "__main__":
    main()
