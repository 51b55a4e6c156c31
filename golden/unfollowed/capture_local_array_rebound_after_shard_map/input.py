"""breaker11 l02: the vmapped `block` binds `w = W` (an unbatched (8, 8) array), builds an all-replicated shard_map
whose body closes over `w`, then rebinds `w = w * 2.0` before applying it: the body reads the last value. `w`
bound twice was not an array to capture (silent on main); which value reaches the body is not read, so neither
is its shape: an SPMD910 record naming the two bindings, never a guessed finding. JAX fails (ManualAxisType):
`w` has the block's rank 2."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ('data', 'model'))
W = jnp.ones((8, 8), dtype=jnp.float32) * 1.5


def block(x):
    w = W
    sm = jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P(), out_specs=P())
    w = w * 2.0
    return sm(x)


def forward(xs):
    return jax.jit(jax.vmap(block, spmd_axis_name='data'))(xs)


def main():
    xs = np.ones((8, 8, 8), np.float32)
    return forward(xs), xs * 3.0
