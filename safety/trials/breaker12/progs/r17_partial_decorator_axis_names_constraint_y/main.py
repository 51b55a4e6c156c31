import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


@functools.partial(jax.shard_map, mesh=mesh, in_specs=P('x', None), out_specs=P('x', None), axis_names={'x'})
def body(b):
    return jax.lax.with_sharding_constraint(b * 2.0, NamedSharding(mesh, P(None, 'y')))


def main():
    xs = np.arange(4 * 8 * 8, dtype=np.float32).reshape(4, 8, 8)
    out = jax.jit(jax.vmap(body, spmd_axis_name='x'))(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
