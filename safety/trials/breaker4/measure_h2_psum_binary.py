import sys
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
BODIES = {
    "b*b": (lambda b: b * b, lambda x: x * x),
    "b+psum(sum)": (lambda b: b + jax.lax.psum(b.sum(), "model"), lambda x: x + x.sum(-1, keepdims=True)),
    "psum(b)": (lambda b: jax.lax.psum(b, "model"), None),
    "b-pmean(b.mean)": (lambda b: b - jax.lax.pmean(b.mean(), "model"), lambda x: x - x.mean(-1, keepdims=True)),
    "sin(b)": (lambda b: jnp.sin(b), lambda x: np.sin(x)),
}
for name, (body, ref) in BODIES.items():
    def head(x):
        return jax.shard_map(body, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)
    f = jax.jit(jax.vmap(lambda x: jax.vmap(head)(x), spmd_axis_name="data"))
    xs = jnp.linspace(0, 1, 4 * 2 * 8).reshape(4, 2, 8)
    try:
        out = f(xs)
        print(name, "runs", "match" if ref is None or np.allclose(out, ref(np.asarray(xs)), atol=1e-5) else "mismatch")
    except Exception as e:
        print(name, type(e).__name__, str(e).splitlines()[0][:60])
