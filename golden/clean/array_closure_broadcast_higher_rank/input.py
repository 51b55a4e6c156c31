"""An unbatched array W (rank 1) closed over by an all-replicated body with check_vma on, under
spmd_axis_name='x': the body's operand is one example of `xs`, of rank 2, so `b * W` broadcasts W to a higher
rank, which runs and matches eager (no SPMD003). A W of the operand's own rank fails (ManualAxisType)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)


def block(x):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * W - W, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(8, 4, 8) - 85.0) / 64.0
    xs = jnp.asarray(xs0)
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    return result, (xs0 * 2.0 + 1.0) * np.asarray(W) - np.asarray(W)
