import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)


def block(x):
    return jax.shard_map(jnp.tanh, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


remat_block = jax.checkpoint(block, policy=jax.checkpoint_policies.dots_saveable)
VMAPPED = jax.vmap(remat_block, spmd_axis_name="data")


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(VMAPPED)(x)
    ref = np.tanh(np.asarray(x))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()

