"""A shard_map body closing over `w`, a value the spmd vmap batches, on an Explicit mesh whose batch is placed on
the spmd axis 'y' (every mapped input), under jax.jit, with `check_vma` written through a constant that is False:
the capture fails (`For primitive mul, context mesh ...`), so SPMD003 is reported (the constant is read; a
check_vma that is not known to be on never exempts the capture); lift-captures makes w an operand and it runs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

CV = False
mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=CV)(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('y', 'x')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('y')))
    result = jax.jit(jax.vmap(block, in_axes=(0, 0), spmd_axis_name='y'))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
