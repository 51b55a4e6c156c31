import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ('data', 'model'))
W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)


def block(x):
    return jax.shard_map(lambda b: b * W, mesh=mesh, in_specs=P(), out_specs=P())(x)


def forward(xs):
    return jax.jit(jax.vmap(block, spmd_axis_name='data'))(xs)


xs = np.ones((8, 8, 8), np.float32)
out = forward(xs)
print("RESULT: match" if np.allclose(np.asarray(out), xs * np.asarray(W)) else "RESULT: mismatch")
