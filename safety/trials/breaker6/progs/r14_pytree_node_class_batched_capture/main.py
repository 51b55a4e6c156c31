import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


@jax.tree_util.register_pytree_node_class
class Affine:
    def __init__(self, w, b, activation="tanh"):
        self.w, self.b, self.activation = w, b, activation

    def tree_flatten(self):
        return (self.w, self.b), self.activation

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, activation=aux)

    def __call__(self, x):
        w = self.w
        h = jax.shard_map(lambda blk: blk * w, mesh=mesh, in_specs=P(), out_specs=P())(x)
        return jnp.tanh(h + self.b)


def main():
    ws = jnp.linspace(0.5, 2.0, 4 * 8).reshape(4, 8)   # one member per example (ensemble)
    bs = jnp.linspace(-0.1, 0.1, 4 * 8).reshape(4, 8)
    x = jnp.linspace(-1, 1, 4 * 2 * 8).reshape(4, 2, 8)
    out = jax.vmap(lambda m, v: m(v), spmd_axis_name="data")(Affine(ws, bs), x)
    ref = np.tanh(np.asarray(x) * np.asarray(ws)[:, None, :] + np.asarray(bs)[:, None, :])
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
