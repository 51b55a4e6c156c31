"""The shard_map body calls `run(make_summer(), b)`, and `run(s, b)` calls `s.sum(b)`: `Summer.sum` applies
`lax.cond` over a traced predicate. The walk does not resolve which object the parameter `s` holds, and hazard H2
keyed the call `Array.sum` (an allowed array method): the rename to 'y' was SAFE and the renamed program raised
`pvary is a invariant->variant collective`. A method a class of the module defines, called on an object the walk
does not resolve, may be that method: on no allowlist, so rename is unsafe, naming the call."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


class Summer:
    def sum(self, t):
        return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


def make_summer():
    return Summer()


def run(s, b):
    return s.sum(b)


def body(b):
    return run(make_summer(), b)


def layer(v):
    return jax.shard_map(body, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 10.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = jax.vmap(layer)(xs)
    return result, reference
