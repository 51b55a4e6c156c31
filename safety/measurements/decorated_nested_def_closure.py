"""leftovers7: a project decorator applying shard_map (`def model_parallel(fn): return jax.shard_map(fn, ...)`), or
a decorator factory's decorator (`@parallel("model")`), over a `def` nested in the function an spmd vmap
(`spmd_axis_name='data'`, Auto 2x4 mesh, specs `P('model')`) maps, closing over the batched `shift`: does JAX refuse
it as the same closure given to `jax.shard_map` directly? Controls: the decorated `def` at module level, and nested
but closing over nothing. The decorator is also imported from a module of its own (written to a temporary
directory), as in a package.

Run: python safety/measurements/decorated_nested_def_closure.py (jax 0.10.2, CPU, 8 devices).
"""

from __future__ import annotations

import _outcome  # noqa: F401  (sets XLA_FLAGS before jax is imported)
from _outcome import header, show_group

import importlib
import sys
import tempfile
import textwrap
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def model_parallel(fn):
    return jax.shard_map(fn, mesh=MESH, in_specs=P("model"), out_specs=P("model"))


def parallel(axis):
    def deco(fn):
        return jax.shard_map(fn, mesh=MESH, in_specs=P(axis), out_specs=P(axis))

    return deco


tmp = Path(tempfile.mkdtemp())
(tmp / "lo7_parallel.py").write_text(textwrap.dedent('''
    import jax
    import numpy as np
    from jax.sharding import Mesh, PartitionSpec as P

    MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))

    def model_parallel(fn):
        return jax.shard_map(fn, mesh=MESH, in_specs=P("model"), out_specs=P("model"))
'''))
sys.path.insert(0, str(tmp))
other = importlib.import_module("lo7_parallel")


@model_parallel
def act(b):
    return jnp.tanh(b)


def programs():
    def closure(x, s):
        @model_parallel
        def body(b):
            return jnp.tanh(b + s)

        return body(x)

    def factory_closure(x, s):
        @parallel("model")
        def body(b):
            return jnp.tanh(b + s)

        return body(x)

    def other_module_closure(x, s):
        @other.model_parallel
        def body(b):
            return jnp.tanh(b + s)

        return body(x)

    def module_level(x, s):
        return act(x + s)

    def nested_no_closure(x, s):
        @model_parallel
        def body(b):
            return jnp.tanh(b)

        return body(x + s)

    return {
        "@model_parallel over a nested def closing over shift": closure,
        "@parallel('model') (factory) over it": factory_closure,
        "@other.model_parallel (another module) over it": other_module_closure,
        "module-level decorated def (control)": module_level,
        "nested decorated def closing over nothing (control)": nested_no_closure,
    }


header("a project decorator applying shard_map over a nested def closing over a batched value", ["eager", "jit"])
xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
shifts = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32)
ref = np.tanh(xs + shifts[:, None])
for label, fn in programs().items():
    show_group(label, {
        "eager": lambda fn=fn: jax.vmap(fn, spmd_axis_name="data")(xs, shifts),
        "jit": lambda fn=fn: jax.jit(jax.vmap(fn, spmd_axis_name="data"))(xs, shifts),
    }, ref)
