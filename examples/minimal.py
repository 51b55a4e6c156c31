"""Minimal reproduction of

    ValueError: vmap spmd_axis_name cannot appear in shard_map in_specs

The vmap maps its batch onto mesh axis 'i', and the function it maps applies a
shard_map that also splits its input over 'i'.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(8), ('i',))


def double(v):
    return v * 2.0


def f(x):
    return jax.shard_map(double, mesh=mesh, in_specs=P('i'), out_specs=P('i'))(x)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    result = jax.vmap(f, spmd_axis_name='i')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference


if __name__ == "__main__":
    # Needs 8 devices: XLA_FLAGS=--xla_force_host_platform_device_count=8 python examples/minimal.py
    out, expected = main()
    print("values match:", np.allclose(out, expected))
