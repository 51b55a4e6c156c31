"""leftovers7 item 3 (breaker6 r04): a class of the project used as a decorator, `__init__` keeping
`jax.shard_map(fn, ...)` and `__call__` applying it, under `jax.vmap(..., spmd_axis_name='data')`: what JAX does
when (a) the specs name 'data' (SPMD001's error?), (b) after add-axis (a size-1 'batch' axis first, the vmap on
it), (c) the decorated function is a `def` nested in the vmapped function closing over a batched value (specs
`P('model')`), (d) the same nested `def` closing over nothing, (e) a class whose `__call__` ignores the kept
shard_map and calls the function directly (`return self.fn(x)`; not followed as a shard_map).

Run: python safety/measurements/class_decorator_shard_map.py (jax 0.10.2, CPU, 8 devices).
"""

from __future__ import annotations

import _outcome  # noqa: F401  (sets XLA_FLAGS before jax is imported)
from _outcome import header, show_group

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

header("a class of the project as a shard_map decorator under an spmd vmap", ["eager", "jit"])
devices = np.array(jax.devices())
MESH = Mesh(devices.reshape(2, 4), ("data", "model"))
MESH3 = Mesh(devices.reshape(1, 2, 4), ("batch", "data", "model"))


def sharding_class(mesh, spec, direct=False):
    class Sharded:
        def __init__(self, fn):
            self.fn = fn
            self.sharded = jax.shard_map(fn, mesh=mesh, in_specs=spec, out_specs=spec)

        def __call__(self, x):
            return self.fn(x) if direct else self.sharded(x)

    return Sharded


xs = np.linspace(-2.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
shifts = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32)
swish_ref = xs / (1.0 + np.exp(-xs))


def run(fn, axis, *args):
    return {
        "eager": lambda: jax.vmap(fn, spmd_axis_name=axis)(*args),
        "jit": lambda: jax.jit(jax.vmap(fn, spmd_axis_name=axis))(*args),
    }


DataParallel = sharding_class(MESH, P("data"))


@DataParallel
def swish(x):
    return x * jax.nn.sigmoid(x)


show_group("(a) module-level def, specs P('data'), spmd 'data'", run(swish, "data", xs), swish_ref)

Fixed = sharding_class(MESH3, P("data"))


@Fixed
def swish_fixed(x):
    return x * jax.nn.sigmoid(x)


show_group("(b) add-axis: mesh ('batch', 'data', 'model'), spmd 'batch'", run(swish_fixed, "batch", xs), swish_ref)

ModelParallel = sharding_class(MESH, P("model"))


def nested_closure(x, shift):
    @ModelParallel
    def body(b):
        return jnp.tanh(b + shift)

    return body(x)


def nested_plain(x, shift):
    @ModelParallel
    def body(b):
        return jnp.tanh(b)

    return body(x + shift)


ref = np.tanh(xs + shifts[:, None])
show_group("(c) nested def closing over batched shift, specs P('model')", run(nested_closure, "data", xs, shifts), ref)
show_group("(d) nested def closing over nothing, specs P('model')", run(nested_plain, "data", xs, shifts), ref)
Direct = sharding_class(MESH, P("data"), direct=True)


@Direct
def swish_direct(x):
    return x * jax.nn.sigmoid(x)


show_group("(e) __call__ calls self.fn directly (P('data') kept, unused)", run(swish_direct, "data", xs), swish_ref)
