"""An input placed on Explicit axis 'x' at the dimension after the batch (`P(None, 'x', None)`), mapped away by an
inner jax.vmap on the way to a shard_map whose specs name 'x' (the spmd axis is 'y'): 'x' is not manual there
(SPMD006 at both spec entries, no fix).

Measured on jax 0.10.2: `shard_map in_specs argument must refer to an axis marked as manual`, eagerly and under
jit, with check_vma True or False; stripping 'x' from the specs fails too under the spmd vmap.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(r):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(r)


def apply(x, w):
    return jax.vmap(block, in_axes=0)(x) * w


def main():
    xs0 = np.arange(8 * 8 * 8, dtype=np.float32).reshape(8, 8, 8) / 64.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x', None)))
    result = jax.jit(jax.vmap(apply, in_axes=(0, None), spmd_axis_name='y'))(xs, 2.0)
    reference = (xs0 * 2.0 + 1.0) * 2.0
    return result, reference
