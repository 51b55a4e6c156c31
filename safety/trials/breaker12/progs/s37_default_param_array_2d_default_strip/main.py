import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))

W = jnp.arange(1.0, 9.0).reshape(4, 2)
W_NP = np.arange(1.0, 9.0).reshape(4, 2)
N_ROWS = mesh.devices.shape[0]


def block(v):
    return jax.shard_map(lambda b, w=W: b * w, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(v)


def main():
    xs = np.arange(4 * 64, dtype=np.float32).reshape(4, 8, 8) + 1.0
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    ref = np.stack([(v.reshape(2, 4, 2, 4) * np.arange(1.0, 5.0)).reshape(8, 8) if False else np.block([[v[i*4:(i+1)*4, j*2:(j+1)*2] * W_NP for j in range(4)] for i in range(2)]) for v in xs])
    ok = np.asarray(out).shape == ref.shape and np.allclose(np.asarray(out), ref)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
