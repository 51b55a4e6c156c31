"""breaker6 r38: a plain vmap bound at module level through `jax.jit` (`normalise = jax.jit(jax.vmap(per_example))`),
called in `main` on an input placed on the Explicit axis 'data'; the shard_map body closes over `scale`, a value
the vmap batches: JAX fails (`For primitive div, context mesh ... should match the aval mesh`;
safety/trials/breaker6/measure_named_plain_vmap_jit.py). The analysis found it, but the prefilter dropped the
file: the vmap, applied inside `jax.jit(...)` at module level, and the `device_put` in `main` were not in one
function, and `normalise(x)` was not read as the vmap's application. SPMD003 now; lift-captures passes `scale` as a `P()` operand."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"))


def per_example(v):
    scale = jnp.abs(v).max()
    return jax.shard_map(lambda b, scale: b / scale, mesh=mesh, in_specs=(P(), P()), out_specs=P(), check_vma=False)(v, scale)


normalise = jax.jit(jax.vmap(per_example))


def main():
    x0 = np.linspace(-1.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
    x = jax.device_put(jnp.asarray(x0), NamedSharding(mesh, P("data", None)))
    return normalise(x), x0 / np.abs(x0).max(-1, keepdims=True)
