"""breaker6 r35: a shard_map body the analysis cannot resolve to a function, held by a name of a function on the
vmap's way (a loop variable over a local list of lambdas, a subscript of a local list, a parameter given a
lambda), closing over a value the vmap with `spmd_axis_name` batches: does JAX refuse it as it refuses the same
lambda written in place? And a body from a module-level table of library functions (nothing batched to close
over): does it run?

Run: python measure_unresolved_body_captures.py (jax 0.10.2, CPU, 8 devices). Measured 2026-12-06: the first four
rows FAIL with `AssertionError: ManualAxisType(varying=frozenset({'data'}) ...` (as the lambda written in place,
row 0), the module-level table row runs and matches."""
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, PartitionSpec as P  # noqa: E402

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
ACTS = {"tanh": jnp.tanh}


def sm(f):
    return jax.shard_map(f, mesh=mesh, in_specs=P("model"), out_specs=P("model"))


def in_place(x, s):
    return sm(lambda b: jnp.tanh(b + s))(x)


def loop_variable(x, s):
    fns = [lambda b, k=k: jnp.tanh(b + k * s) for k in range(2)]
    for f in fns:
        x = sm(f)(x)
    return x


def loop_over_tuple(x, s):
    for f in (lambda b: jnp.tanh(b + s), jnp.sin):
        x = sm(f)(x)
    return x


def subscript_of_local(x, s):
    fns = [lambda b: jnp.tanh(b + s)]
    return sm(fns[0])(x)


def apply(x, f):
    return sm(f)(x)


def parameter(x, s):
    return apply(x, lambda b: jnp.tanh(b + s))


def module_table(x, s):
    return sm(ACTS["tanh"])(x) + 0 * s


x = jnp.linspace(-1, 1, 32).reshape(4, 8)
s = jnp.linspace(0.1, 0.4, 4)
for fn in (in_place, loop_variable, loop_over_tuple, subscript_of_local, parameter, module_table):
    try:
        out = jax.vmap(fn, spmd_axis_name="data")(x, s)
        ref = jax.vmap(fn)(x, s)
        print(f"{fn.__name__}: runs, {'match' if np.allclose(out, ref, atol=1e-5) else 'mismatch'}")
    except Exception as e:  # noqa: BLE001
        print(f"{fn.__name__}: FAIL {type(e).__name__}: {str(e)[:100]}")
