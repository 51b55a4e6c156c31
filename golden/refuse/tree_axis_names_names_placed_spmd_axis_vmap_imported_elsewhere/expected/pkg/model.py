"""`axis_names={'x', 'y'}` naming the spmd axis `'x'` on an Explicit mesh, the batch placed `P('x', 'y')` on it:
the vmap takes the placed spmd axis out of the shard_map's mesh and JAX raises `jax.shard_map requires
axis_names=... to be a subset of mesh.axis_names` (safety/measurements/open_items_issue22_kind9.py, part B).
The vmapped callable (`batched`) is imported by another module of the project (pkg/serve.py), so its calls are not
all followed: SPMD008 asked every call to place the batch and was silent. The call followed fails whatever the
other module passes: SPMD008. No fix is measured: nothing applied."""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def f(v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         axis_names={'x', 'y'})(v)


batched = jax.vmap(f, spmd_axis_name='x')


def main():
    a = np.arange(32, dtype=np.float32).reshape(4, 8) / 3.0
    xs = jax.device_put(a, NamedSharding(mesh, P('x', 'y')))
    return batched(xs), a * 2.0 + 1.0
