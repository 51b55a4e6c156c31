"""breaker6 r11: an nnx ensemble made by an `nnx.vmap`-decorated factory, applied by `forward(model, x)` under
`nnx.vmap(in_axes=(0, 0), spmd_axis_name='data')`; the module's `__call__` applies a shard_map whose body closes
over `self` (`self.scale[...]`, one scale per member: batched). JAX fails (`AssertionError: ManualAxisType(...)`).
The walk of batched values does not follow `model` (a parameter given the factory's result) to `__call__`, and
the capture was dropped: silent. Now an SPMD910 record at the capture."""
import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


class ScaledAct(nnx.Module):
    def __init__(self, d, rngs):
        self.scale = nnx.Param(jax.random.uniform(rngs.params(), (d,)) + 0.5)

    def __call__(self, x):
        return jax.shard_map(lambda b: jnp.tanh(b) * self.scale[...], mesh=MESH, in_specs=P(), out_specs=P())(x)


@nnx.vmap(in_axes=0, out_axes=0)
def make_ensemble(key):
    return ScaledAct(8, nnx.Rngs(key))


@nnx.vmap(in_axes=(0, 0), spmd_axis_name="data")
def forward(model, x):
    return model(x)


def main():
    models = make_ensemble(jax.random.split(jax.random.key(0), 4))
    xs = np.linspace(-1.0, 1.0, 64, dtype=np.float32).reshape(4, 2, 8)
    scale = np.asarray(models.scale[...])
    return forward(models, xs), np.tanh(xs) * scale[:, None, :]
