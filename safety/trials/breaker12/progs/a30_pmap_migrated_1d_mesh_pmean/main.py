import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ('batch',))


def block(v):
    return jax.shard_map(lambda b: b - jax.lax.pmean(b, 'batch'), mesh=mesh, in_specs=P('batch'), out_specs=P('batch'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name='batch')(xs)
    ref = xs - xs.mean(axis=1, keepdims=True)
    print("RESULT: match" if np.allclose(np.asarray(out), ref) else "RESULT: mismatch")


main()
