import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ('data', 'model'))
W = jnp.ones((8, 8), dtype=jnp.float32) * 1.5


def block(x):
    w = W
    sm = jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P(), out_specs=P())
    w = w * 2.0
    return sm(x)



def forward(xs):
    return jax.jit(jax.vmap(block, spmd_axis_name='data'))(xs)


xs = np.ones((8, 8, 8), np.float32)
out = forward(xs)
ok = np.allclose(np.asarray(out), xs * 3.0)
pass
print("RESULT: match" if ok else "RESULT: mismatch")
