import functools
import dataclasses
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ("data", "fsdp", "model"), axis_types=(AxisType.Auto,) * 3)
N_AXES = len(mesh.axis_names)  # logged by the launcher


allreduce = jax.lax.psum


def body(b):
    return allreduce(jnp.tanh(b), "fsdp")


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(("data", "model")), out_specs=P(("data", "model")))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(x)
    ref = 2.0 * np.tanh(np.asarray(x))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
