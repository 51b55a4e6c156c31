import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def body(b):
    b = jax.lax.with_sharding_constraint(b, P(None, 'y'))
    return b * 2.0


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x', None), out_specs=P('x', None), axis_names={'x'})(v)


def main():
    xs = np.arange(4 * 8 * 8, dtype=np.float32).reshape(4, 8, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
