import jax
import jax.numpy as jnp
import numpy as np

from pkg.aaa_eval import EVAL_MESH
from pkg.model import block


def main():
    xs = jnp.ones((4, 8))
    out = jax.vmap(block, spmd_axis_name="data")(xs)
    ev = jax.shard_map(lambda b: b + 1.0, mesh=EVAL_MESH, in_specs=jax.P("model"), out_specs=jax.P("model"))(xs[0])
    ok = np.allclose(out, np.asarray(xs) * 2.0) and np.allclose(ev, 2.0)
    print("RESULT:", "match" if ok else "mismatch")
