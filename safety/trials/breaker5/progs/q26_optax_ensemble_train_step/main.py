import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("ens", "model"))
opt = optax.sgd(0.1)


def loss_fn(w, x):
    h = x @ w
    h = jax.shard_map(jnp.tanh, mesh=mesh, in_specs=P(None, "ens"), out_specs=P(None, "ens"))(h)
    return jnp.mean(h ** 2)


@functools.partial(jax.vmap, in_axes=(0, 0, None), spmd_axis_name="ens")
def train_step(w, opt_state, x):
    g = jax.grad(loss_fn)(w, x)
    updates, opt_state = opt.update(g, opt_state, w)
    return optax.apply_updates(w, updates), opt_state


def main():
    ws = jnp.stack([jnp.eye(8) * (i + 1) * 0.1 for i in range(4)])
    states = jax.vmap(opt.init)(ws)
    x = jnp.linspace(-1, 1, 16 * 8).reshape(16, 8)
    new_w, _ = jax.jit(train_step)(ws, states, x)

    def ref_loss(w):
        return jnp.mean(jnp.tanh(x @ w) ** 2)

    ref = np.stack([np.asarray(w - 0.1 * jax.grad(ref_loss)(w)) for w in ws])
    print("RESULT:", "match" if np.allclose(new_w, ref, atol=1e-5) else "mismatch")


main()
