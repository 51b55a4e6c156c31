import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


@jax.custom_vjp
def clip_grad_tanh(x):
    return jnp.tanh(x)


def _fwd(x):
    return jnp.tanh(x), x


def _bwd(x, g):
    return (jnp.clip(g * (1 - jnp.tanh(x) ** 2), -1.0, 1.0),)


clip_grad_tanh.defvjp(_fwd, _bwd)


def loss(w, x):
    h = jax.shard_map(clip_grad_tanh, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x * w)
    return jnp.sum(h)


def main():
    w = jnp.array([0.5, 1.0, 1.5, 2.0])
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    g = jax.jit(jax.vmap(jax.grad(loss), spmd_axis_name="data"))(w, x)
    xn, wn = np.asarray(x), np.asarray(w)[:, None]
    ref = np.sum(np.clip(1 - np.tanh(xn * wn) ** 2, -1, 1) * xn, axis=1)
    print("RESULT:", "match" if np.allclose(g, ref, atol=1e-5) else "mismatch")


main()
