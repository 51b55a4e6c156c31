"""The shard_map body calls `ops.add_total`, a function of pkg/ops.py whose psum runs over 'z', the only mesh
axis free for a rename. Renamed to 'z', the psum adds sums of other batch elements (docs/safety.md row 11);
on main the body's collectives were read in this module only, so the rename was safe and auto applied it
(safety/trials/breaker12 r35: values differ)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

from pkg import ops

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def layer(x):
    return jax.shard_map(lambda v: ops.add_total(v), mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'),
                         check_vma=False)(x)


def forward():
    xs = jnp.arange(4 * 4 * 4, dtype=jnp.float32).reshape(4, 4, 4)
    return jax.vmap(layer, spmd_axis_name='x')(xs), xs
