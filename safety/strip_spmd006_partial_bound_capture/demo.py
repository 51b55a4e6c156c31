"""Original (golden refuse/strip_spmd006_partial_bound_capture, fuzz seed 70217): a plain vmap over inputs
placed on Explicit 'x', the shard_map naming 'x', its body getting the batched `w` bound by functools.partial.
Applied anyway: strip -> P(None): the spec no longer names 'x', but the body still captures `w`, placed on the
Explicit mesh, and JAX refuses it (`context mesh ... should match the aval mesh`)."""
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P


mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b, w):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(functools.partial(body, w=w), mesh=mesh, in_specs=P(None), out_specs=P(None))(x)


def apply(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    ws = jnp.asarray(ws0)
    xs = jax.sharding.reshard(xs, NamedSharding(mesh, P('x', None)))
    ws = jax.sharding.reshard(ws, NamedSharding(mesh, P('x')))
    reference = (xs0 * 2.0 + 1.0) * ws0[:, None]
    result = jax.vmap(apply, in_axes=(0, 0))(xs, ws)
    return result, reference
