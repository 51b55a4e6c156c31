"""The shard_map body calls `OPS["interp"](b, XP, FP)`: `jnp.interp` read from a dict. The walk reads the item as
the library function it holds, which is no function of the project, and hazard H2's allowlist judged no call: the
rename to 'y' was SAFE and the renamed program raised `pvary is a invariant->variant collective`. A callable read
from a container is on no allowlist: rename is unsafe, naming the call."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
XP = np.linspace(0.0, 40.0, 5)
FP = np.linspace(0.0, 80.0, 5)
OPS = {"interp": jnp.interp}


def body(b):
    return OPS["interp"](b, XP, FP)


def layer(v):
    return jax.shard_map(body, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.interp(np.asarray(xs), XP, FP)
    return result, reference
