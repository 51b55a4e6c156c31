import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def mlp(h, w):
    def body(hb, wb):
        return jax.lax.psum(hb @ wb, "model")
    out = jax.shard_map(body, mesh=mesh, in_specs=(P("model"), P("model", None)), out_specs=P())(h, w)
    return jnp.tanh(out), None


def forward(x, ws):
    h, _ = jax.lax.scan(jax.checkpoint(mlp), x, ws)
    return h


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    ws = jnp.linspace(-0.3, 0.3, 3 * 8 * 8).reshape(3, 8, 8)
    out = jax.jit(jax.vmap(forward, in_axes=(0, None), spmd_axis_name="data"))(x, ws)
    ref = np.asarray(x)
    for w in np.asarray(ws):
        ref = np.tanh(ref @ w)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
