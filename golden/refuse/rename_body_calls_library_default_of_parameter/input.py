"""The shard_map body `body(b, f=jnp.interp)` calls its parameter `f`, whose default is `jnp.interp`. Hazard H2
took a parameter's call as the project's (the walk's to follow): the rename to 'y' was SAFE and the renamed
program raised `pvary is a invariant->variant collective`. A parameter's default written as a library function is
judged as that function: rename is unsafe, naming the call."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
XP = np.linspace(0.0, 40.0, 5)
FP = np.linspace(0.0, 80.0, 5)


def body(b, f=jnp.interp):
    return f(b, XP, FP)


def layer(v):
    return jax.shard_map(body, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.interp(np.asarray(xs), XP, FP)
    return result, reference
