"""breaker6 r14 (with the receiver annotated): a `register_pytree_node_class` class with its own `tree_flatten`
(children `(w, b)`, aux the activation), an ensemble vmapped with `spmd_axis_name='data'` through
`apply(m: Affine, v)`; `__call__`'s shard_map body closes over `w = self.w`, a batched leaf. JAX fails
(`AssertionError: ManualAxisType(...)`). Which fields such a class leaves static is not read, so `self` was not
counted as batched and the capture was dropped: silent. Now an SPMD910 record at the capture (a read of a field
the class declares static stays silent: golden clean/capture_static_field_of_batched_pytree_module)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


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
        h = jax.shard_map(lambda blk: blk * w, mesh=MESH, in_specs=P(), out_specs=P())(x)
        return jnp.tanh(h + self.b)


def apply(m: Affine, v):
    return m(v)


def main():
    ws = jnp.linspace(0.5, 2.0, 4 * 8).reshape(4, 8)
    bs = jnp.linspace(-0.1, 0.1, 4 * 8).reshape(4, 8)
    x = jnp.linspace(-1, 1, 4 * 2 * 8).reshape(4, 2, 8)
    ref = np.tanh(np.asarray(x) * np.asarray(ws)[:, None, :] + np.asarray(bs)[:, None, :])
    return jax.vmap(apply, spmd_axis_name="data")(Affine(ws, bs), x), ref
