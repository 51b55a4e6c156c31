import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(v)


def compute():
    xs = np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) / 10.0
    xs = jax.device_put(xs, NamedSharding(mesh, P(None, 'x', 'y')))
    xs = jnp.swapaxes(xs, 0, 1)
    return jax.jit(jax.vmap(block))(xs)


if __name__ == "__main__":
    out = compute()
    ref = np.swapaxes(np.arange(128, dtype=np.float32).reshape(4, 4, 8) / 10.0, 0, 1) * 2.0
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(ref), atol=1e-5) else "RESULT: mismatch")
