"""A shard_map body closing over `w`, a value the spmd vmap batches, under all-replicated specs, on an Explicit
mesh whose only axis is the spmd axis 'x', the batch placed on it, the vmap under `@jax.jit` stacked above its
decorator (fuzz seed 80604): the body makes no mesh axis manual beside the batch's, and the capture runs and
matches (no SPMD003). With a second mesh axis, even of size 1, it fails (`context mesh ... should match the
aval mesh`): safety/measurements/capture_mesh_of_spmd_axes.py."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2,), ('x',), axis_types=(AxisType.Explicit,))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


@jax.jit
@functools.partial(jax.vmap, in_axes=(0, 0), spmd_axis_name='x')
def apply(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('x')))
    result = apply(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
