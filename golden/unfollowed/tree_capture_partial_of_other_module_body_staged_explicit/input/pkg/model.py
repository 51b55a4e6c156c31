import functools

import jax
from jax.sharding import PartitionSpec as P

from pkg import ops

MESH = jax.make_mesh((2, 4), ('x', 'y'))


@jax.jit
def apply(v, s):
    return jax.shard_map(functools.partial(ops.body, s=s), mesh=MESH, in_specs=P(None), out_specs=P(None))(v)


def forward(xs, ss):
    with jax.set_mesh(MESH):
        return jax.vmap(apply, spmd_axis_name='x')(xs, ss)
