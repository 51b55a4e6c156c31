"""An input placed on the Explicit spmd axis at the dimension after the batch (`P(None, 'x', None)`), mapped away by
an inner jax.vmap: JAX inserts 'x' into the shard_map's specs, where it is not manual (SPMD006, no fix).

Measured on jax 0.10.2: `shard_map in_specs argument must refer to an axis marked as manual` eagerly, a
`manual_axis_type` error under jit. Moving the placement to the batch dimension or dropping spmd_axis_name runs
here, but neither runs in every such program (with check_vma=False called eagerly both fail), so none is offered.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(r):
    return jax.shard_map(lambda b: jnp.cumsum(b) * 2.0, mesh=mesh, in_specs=P(), out_specs=P())(r)


def apply(x):
    return jax.vmap(block)(x)


def main():
    xs0 = np.arange(8 * 8 * 8, dtype=np.float32).reshape(8, 8, 8) / 64.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x', None)))
    result = jax.vmap(apply, spmd_axis_name='x')(xs)
    reference = np.cumsum(xs0, axis=-1) * 2.0
    return result, reference
