"""A shard_map in the `fwd` rule of a `jax.custom_vjp`, the spmd vmap over `loss` itself and the grad taken
outside the vmap (`jax.grad(lambda xs: jax.vmap(loss, ...)(xs).sum())`): JAX raises SPMD001's error
(safety/measurements/custom_vjp_fwd_shard_map.py, "grad(vmap(loss))"). From the vmap no differentiating
transform is on the way, and not differentiated the rule does not run (the same program without the grad runs):
an SPMD910 record at the decorator, not a finding and not silence."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


@jax.custom_vjp
def fused_square(x):
    return x * x


def _fwd(x):
    return jax.shard_map(lambda b: b * b, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x), x


def _bwd(x, g):
    return (2.0 * x * g,)


fused_square.defvjp(_fwd, _bwd)


def loss(x):
    return fused_square(x).sum()


def total(xs):
    return jax.vmap(loss, spmd_axis_name="data")(xs).sum()


def main():
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    return jax.grad(total)(xs), 2.0 * xs
