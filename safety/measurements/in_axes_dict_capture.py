"""leftovers8 (breaker7 s19/s20): a shard_map body closing over a value read off a dict argument the spmd vmap
maps through an `in_axes` dict (`in_axes=({"scale": 0, "bias": None}, 0)`, `spmd_axis_name='data'`, Auto 2x4
mesh, specs `P('model')`). Which captures does JAX refuse: the dict whole (`p` read in the body), a key the dict
maps (`p["scale"]`, also through a local `scale = p["scale"]`), a key it leaves unmapped (`p["bias"]`), with
every key unmapped (`{"scale": None}`, also `[None]`-style tuple entries), every key mapped (`{"scale": 0}`)?
And the lift-captures edits: the dict passed whole as an operand under `P()`, the local of a mapped key passed so.
Eager and under `jax.jit`.

Run: python safety/measurements/in_axes_dict_capture.py (jax 0.10.2, CPU, 8 devices).
"""

from __future__ import annotations

import _outcome  # noqa: F401  (sets XLA_FLAGS before jax is imported)
from _outcome import header, show_group

import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def smap(body):
    return jax.shard_map(body, mesh=MESH, in_specs=P("model"), out_specs=P("model"))


def reads_mapped_key(p, x):
    return smap(lambda b: b * p["scale"])(x)


def reads_mapped_key_local(p, x):
    scale = p["scale"]
    return smap(lambda b: b * scale)(x)


def reads_unmapped_key(p, x):
    return smap(lambda b: b + p["bias"])(x)


def reads_both(p, x):
    return smap(lambda b: b * p["scale"] + p["bias"])(x)


def reads_whole(p, x):
    return smap(lambda b: b * jax.tree.leaves(p)[0])(x)


x = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
scale = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)
bias = np.float32(0.5)
mixed = {"scale": scale, "bias": bias}
ref = {
    "reads_mapped_key": x * scale[:, None],
    "reads_mapped_key_local": x * scale[:, None],
    "reads_unmapped_key": x + bias,
    "reads_both": x * scale[:, None] + bias,
    "reads_whole": x * bias,  # (leaves of a dict are sorted by key: bias first)
}

header("in_axes=({'scale': 0, 'bias': None}, 0): which capture fails", ["eager", "jit"])
for fn in (reads_mapped_key, reads_mapped_key_local, reads_unmapped_key, reads_both, reads_whole):
    vm = lambda fn=fn: jax.vmap(fn, in_axes=({"scale": 0, "bias": None}, 0), spmd_axis_name="data")
    show_group(fn.__name__, {"eager": lambda vm=vm: vm()(mixed, x), "jit": lambda vm=vm: jax.jit(vm())(mixed, x)},
               ref[fn.__name__])

def lifted_whole(p, x):  # (lift-captures of `p` read by key in the body: the dict an operand under `P()`)
    return jax.shard_map(lambda b, q: b * q["scale"] + q["bias"], mesh=MESH, in_specs=(P("model"), P()),
                         out_specs=P("model"))(x, p)


def lifted_local(p, x):  # (lift-captures of `scale = p["scale"]`, `p["bias"]` still closed over)
    scale = p["scale"]
    return jax.shard_map(lambda b, s: b * s + p["bias"], mesh=MESH, in_specs=(P("model"), P()),
                         out_specs=P("model"))(x, scale)


header("the same, lifted to operands under P()", ["eager", "jit"])
for fn in (lifted_whole, lifted_local):
    vm = lambda fn=fn: jax.vmap(fn, in_axes=({"scale": 0, "bias": None}, 0), spmd_axis_name="data")
    show_group(fn.__name__, {"eager": lambda vm=vm: vm()(mixed, x), "jit": lambda vm=vm: jax.jit(vm())(mixed, x)},
               ref["reads_both"])

header("every key unmapped or mapped", ["eager", "jit"])
three = {"scale": np.float32(3.0)}
cases = {
    "{'scale': None}, body reads p['scale']": ({"scale": None}, three, reads_mapped_key, x * 3.0),
    "{'scale': None}, body reads the dict whole": ({"scale": None}, three, reads_whole, x * 3.0),
    "(None,) for a tuple argument, body reads p[0]": (
        (None,), (np.float32(3.0),), lambda p, x: smap(lambda b: b * p[0])(x), x * 3.0),
    "{'scale': 0}, body reads p['scale']": ({"scale": 0}, {"scale": scale}, reads_mapped_key, x * scale[:, None]),
}
for label, (entry, arg, fn, expected) in cases.items():
    vm = lambda entry=entry, fn=fn: jax.vmap(fn, in_axes=(entry, 0), spmd_axis_name="data")
    show_group(label, {"eager": lambda vm=vm, arg=arg: vm()(arg, x),
                       "jit": lambda vm=vm, arg=arg: jax.jit(vm())(arg, x)}, expected)
