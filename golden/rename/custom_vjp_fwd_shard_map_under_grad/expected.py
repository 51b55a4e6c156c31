"""breaker4's p25: a shard_map in the `fwd` rule of a `jax.custom_vjp` whose primal applies none, the spmd vmap
over `jax.grad(loss)`: under the grad the rule runs in the function's place, and JAX raises SPMD001's error
(safety/measurements/custom_vjp_fwd_shard_map.py). spmdfix was silent; the rules registered with `defvjp` are
now walked when a differentiating transform lies on the vmap's way."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


@jax.custom_vjp
def fused_square(x):
    return x * x


def _fwd(x):
    y = jax.shard_map(lambda b: b * b, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    return y, x


def _bwd(x, g):
    return (2.0 * x * g,)


fused_square.defvjp(_fwd, _bwd)


def loss(x):
    return fused_square(x).sum()


def main():
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    out = jax.jit(jax.vmap(jax.grad(loss), spmd_axis_name="model"))(xs)
    return out, 2.0 * xs
