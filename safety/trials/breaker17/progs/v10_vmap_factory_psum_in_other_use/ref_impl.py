import functools
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)


def double(b):
    return b * 2.0


def psumy(b):
    return b + lax.psum(b, 'y')

vmx = partial(jax.vmap)


def block_x(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def block_p(v):
    return jax.shard_map(psumy, mesh=mesh, in_specs=P('z'), out_specs=P('z'), check_vma=False)(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return vmx(block_x)(xs) + vmx(block_p)(xs)
