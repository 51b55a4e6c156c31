"""check_vma=False on a shard_map an eager spmd vmap reaches through a loop that stages its function
(`jax.lax.map` with and without `batch_size`, `lax.scan`, `fori_loop`, `while_loop`), the batch placed on the
Explicit spmd axis; and a plain vmap over the same placed batch through `jax.lax.map`: each runs and matches,
as under jax.jit (fuzz seed 90054). No finding."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(r):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(r)


def by_chunks(x):
    return jax.lax.map(block, x, batch_size=2)


def by_rows(x):
    return jax.lax.map(block, x)


def by_scan(x):
    return jax.lax.scan(lambda c, r: (c, block(r)), 0.0, x)[1]


def by_fori(x):
    return jax.lax.fori_loop(0, x.shape[0], lambda i, acc: acc.at[i].set(block(acc[i])), x)


def by_while(x):
    return jax.lax.while_loop(
        lambda s: s[0] < x.shape[0], lambda s: (s[0] + 1, s[1].at[s[0]].set(block(s[1][s[0]]))), (0, x)
    )[1]


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None, None)))
    results = [
        jax.vmap(by_chunks, spmd_axis_name='x')(xs),
        jax.vmap(by_rows, spmd_axis_name='x')(xs),
        jax.vmap(by_scan, spmd_axis_name='x')(xs),
        jax.vmap(by_fori, spmd_axis_name='x')(xs),
        jax.vmap(by_while, spmd_axis_name='x')(xs),
        jax.vmap(by_chunks)(xs),
    ]
    result = np.stack([np.asarray(r) for r in results])
    return result, np.stack([xs0 * 2.0 + 1.0] * len(results))
