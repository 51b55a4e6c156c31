"""A jit partial held by a class (`JIT`, a `partial(jax.jit, out_shardings=NamedSharding(mesh, P("y")))` in the
body of `Cfg`), applied as `jax.vmap(Cfg.JIT(layer), ...)`: only a partial bound to a name was followed, so "All checks
passed!" while JAX raised `vmap spmd_axis_name cannot appear in shard_map in_specs` (breaker17 j08). Now the
class's partial is applied as the name's is: its out_shardings name "y", so "x" is renamed to "z"."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))
XS = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)


def double(b):
    return b * 2.0


class Cfg:
    JIT = partial(jax.jit, out_shardings=NamedSharding(mesh, P("y")))


def layer(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(v)


def main():
    return jax.vmap(Cfg.JIT(layer), spmd_axis_name="x")(XS), np.asarray(XS) * 2.0
