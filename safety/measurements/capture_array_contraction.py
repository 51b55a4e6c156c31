"""SPMD003's unbatched-array case (hazard H5: an all-replicated body closing over an array the spmd vmap does not
batch, `check_vma=True`) when the body only contracts the array with its block: `b @ M`, `M @ b`, `jnp.dot`,
`jnp.matmul`, `jnp.einsum`; the elementwise `b * W` as the control.

Run: `python safety/measurements/capture_array_contraction.py` (8 virtual CPU devices; jax 0.10.2).

    M = np.linspace(0.5, 1.5, 64).reshape(8, 8)          # a module constant, unbatched
    def apply(x):
        return shard_map(BODY, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=CV)(x)
    jax.vmap(apply, spmd_axis_name='x')(xs)              # blocks of rank 1 (xs (8, 8)) and rank 2 (xs (8, 4, 8))

Measured (jax 0.10.2): every contraction runs and matches, blocks of rank 1 and 2, eager and under jit, check_vma
True and False, also with arithmetic on the product (`(b @ M) * 2.0`); `b * W` with W of the block's rank fails
with `AssertionError: ManualAxisType(...)` under check_vma=True (capture_array_broadcast.py's rule).
"""

from __future__ import annotations

import _outcome
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
M = np.linspace(0.5, 1.5, 64, dtype=np.float32).reshape(8, 8)
W = np.linspace(0.5, 1.5, 8, dtype=np.float32)

BODIES = {
    "b @ M": (lambda b: b @ M, lambda x: x @ M),
    "M @ b (rank 1)": (lambda b: M @ b, lambda x: x @ M.T),
    "jnp.dot(b, M)": (lambda b: jnp.dot(b, M), lambda x: x @ M),
    "jnp.matmul(b, M)": (lambda b: jnp.matmul(b, M), lambda x: x @ M),
    "jnp.einsum('...j,jk->...k', b, M)": (lambda b: jnp.einsum("...j,jk->...k", b, M), lambda x: x @ M),
    "(b @ M) * 2.0": (lambda b: (b @ M) * 2.0, lambda x: (x @ M) * 2.0),
    "b * W (control)": (lambda b: b * W, lambda x: x * W),
}


def main() -> None:
    for rank in (1, 2):
        shape = (8, 8) if rank == 1 else (8, 4, 8)
        xs = (np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) - 21.0) / 16.0
        for name, (body, ref) in BODIES.items():
            if rank == 2 and name.startswith("M @ b"):
                continue
            for check_vma in (True, False):

                def apply(x, body=body, check_vma=check_vma):
                    return jax.shard_map(body, mesh=MESH, in_specs=P(), out_specs=P(), check_vma=check_vma)(x)

                variants = {
                    "eager": lambda a=apply: jax.vmap(a, spmd_axis_name="x")(jnp.asarray(xs)),
                    "jit": lambda a=apply: jax.jit(jax.vmap(a, spmd_axis_name="x"))(jnp.asarray(xs)),
                }
                _outcome.show_group(f"block rank {rank}; {name}; check_vma={check_vma}", variants, ref(xs))


if __name__ == "__main__":
    main()
