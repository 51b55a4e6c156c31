"""An inner `jax.vmap` between the spmd vmap and a check_vma=True shard_map (hazard H2's place) whose body
applies only a static slice (`b[0:n]`), `jax.lax.dynamic_slice_in_dim` with a literal start and `b ** 2`: no
binary primitive, so it runs and matches, eager and jit (measured on jax 0.10.2:
safety/measurements/spmd007_lax_map_body_ops.py). No SPMD007."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(r):
    n = r.shape[-1]

    def body(b):
        b = b[0:n]
        b = jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)
        return b ** 2

    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(r)


def main():
    xs = np.linspace(-1.0, 2.0, 256, dtype=np.float32).reshape(8, 4, 8)
    result = jax.vmap(jax.vmap(block), spmd_axis_name='x')(xs)
    return result, xs ** 2
