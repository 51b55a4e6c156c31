import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ('data', 'model'))
W = jnp.ones((8, 8), dtype=jnp.float32) * 1.5


def body(b):
    return b * W


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def plain(x):
    return body(x)



def forward(xs):
    return jax.jit(jax.vmap(block, spmd_axis_name='data'))(xs)


xs = np.ones((8, 8, 8), np.float32)
out = forward(xs)
ok = np.allclose(np.asarray(out), xs * 1.5)
ok = ok and np.allclose(np.asarray(plain(xs[0])), xs[0] * 1.5)
print("RESULT: match" if ok else "RESULT: mismatch")
