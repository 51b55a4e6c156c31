"""fuzz seed 230018: a mesh built by a helper named as JAX's own mesh maker is, whose body calls that JAX function: its sizes are read through the one call of the helper, the spmd axis `y` has size 1, and the capture under check_vma=False runs and matches."""
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
from jax.sharding import AxisType


def make_mesh(dp, tp):
    return jax.make_mesh((dp, tp), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)


mesh = make_mesh(8, 1)
ref_mesh = Mesh(np.array(jax.devices()).reshape(8, 1), ('x', 'y'))


def block(x):
    m = x.mean() + 2.0
    def body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)


@jax.jit
@functools.partial(jax.vmap, spmd_axis_name='y')
def apply(x):
    return block(x)


def ref_block(x):
    m = x.mean() + 2.0
    def ref_body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = apply(xs)
    return result, reference
