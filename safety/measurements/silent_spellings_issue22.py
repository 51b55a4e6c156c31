"""Issue 22 ("never silent"): spellings of an spmd vmap across modules that spmdfix was silent on.

Run: `python safety/measurements/silent_spellings_issue22.py` (8 virtual CPU devices; jax 0.10.2).

Each variant is a package `pkg` (written to a temporary directory and imported) whose `m.main()` returns
`(result, reference)`; the row prints what JAX did (`_outcome`). "after" rows are the program as `spmdfix fix`
rewrote it (the golden cases hold the same programs):

1. `self.vec = functools.partial(jax.vmap, spmd_axis_name=axis)` set in `Base.__init__` of pkg/base.py, applied
   by `class Trainer(Base)` of pkg/m.py as `self.vec(step)(x)` with `Trainer('x')`;
2. a vmap wrapper called through an alias (`batched = helpers.batched`, `batched = _batched`), and wrappers of
   another module whose vmap is not their single `return`: two returns each `jax.vmap(fn, ..., **kw)`, one
   `return jax.jit(jax.vmap(fn, **kw))`, `v = jax.vmap(fn, spmd_axis_name=ax); return v`, an if/else, `**kw` filled in
   the body, and a parameter named `spmd_axis_name` (default `'data'`) passed on to the vmap;
3. `self.vec = partial(jax.vmap, spmd_axis_name='x') if flag else jax.vmap`, the condition a parameter
   (`Trainer(True)`, `Trainer(False)`, both) or a module constant;
4. `jax.sharding.reshard(v * 2.0, P('x'))` in a function of pkg/ops.py, called inside `jax.vmap(place,
   spmd_axis_name='x')` or a plain `jax.vmap(place)`, the batch placed `reshard(x, P('x', None))` under
   `jax.set_mesh` of an Explicit `(2, 4)` mesh; the reshard naming `'y'`; and another caller of `place`
   outside any vmap whose result a shard_map over `P('x')` reads, before and after the strip.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from pathlib import Path

import _outcome  # noqa: F401 - sets 8 devices before jax is imported

HEAD = "import functools\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n"
MESH = "mesh = Mesh(np.array(jax.devices()).reshape({shape}), ({names}))\n\n\n"
STEP = "def step(v):\n    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n\n\n"
MAIN = "def main():\n    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)\n    return {call}(x), np.asarray(x) * 2.0\n"
BEFORE = MESH.format(shape="2, 4", names="'x', 'y'")
AFTER = MESH.format(shape="1, 2, 4", names="'batch', 'x', 'y'")  # add-axis


def m(imports: str, middle: str, call: str, mesh: str = BEFORE) -> str:
    """pkg/m.py: the head, `imports`, the mesh and `step`, `middle`, then `main` applying `call` to x."""
    return HEAD + imports + "\n" + mesh + STEP + middle + MAIN.format(call=call)


BASE = (
    "import functools\n\nimport jax\n\n\nclass Base:\n    def __init__(self, axis):\n"
    "        self.vec = functools.partial(jax.vmap, spmd_axis_name=axis)\n"
)
TRAINER = "class Trainer(Base):\n    def run(self, x):\n        return self.vec(step)(x)\n\n\n"
KW = "import jax\n\n\ndef batched(fn, **kw):\n    return jax.vmap(fn, **kw)\n"
TWO_VMAPS = (
    "import jax\n\n\ndef batched(fn, chunked=False, **kw):\n    if chunked:\n"
    "        return jax.vmap(fn, in_axes=1, out_axes=1, **kw)\n    return jax.vmap(fn, **kw)\n"
)
JIT_OR_NOT = (
    "import jax\n\n\ndef batched(fn, jit=False, **kw):\n    if jit:\n        return jax.jit(jax.vmap(fn, **kw))\n"
    "    return jax.vmap(fn, **kw)\n"
)
FILLED = "import jax\n\n\ndef batched(fn, **kw):\n    kw.setdefault('in_axes', 0)\n    return jax.vmap(fn, **kw)\n"
ASSIGNED = "import jax\n\n\ndef batched(fn, ax):\n    v = jax.vmap(fn, spmd_axis_name=ax)\n    return v\n"
NAMED = (
    "import jax\n\n\ndef batched(fn, spmd_axis_name='data'):\n    v = jax.vmap(fn, spmd_axis_name=spmd_axis_name)\n"
    "    return v\n"
)
IF_ELSE = (
    "import jax\n\n\ndef batched(fn, ax=None):\n    if ax is None:\n        return jax.vmap(fn)\n    else:\n"
    "        return jax.vmap(fn, spmd_axis_name=ax)\n"
)
CONDITIONAL = (
    "class Trainer:\n    def __init__(self, flag):\n"
    "        self.vec = functools.partial(jax.vmap, spmd_axis_name={axis}) if flag else jax.vmap\n\n"
    "    def run(self, x):\n        return self.vec(step)(x)\n\n\n"
)
CONSTANT = (
    "SHARD = True\n\n\nclass Trainer:\n    def __init__(self):\n"
    "        self.vec = functools.partial(jax.vmap, spmd_axis_name='x') if SHARD else jax.vmap\n\n"
    "    def run(self, x):\n        return self.vec(step)(x)\n\n\n"
)
OPS = "import jax\nfrom jax.sharding import PartitionSpec as P\n\n\ndef place(v):\n    return jax.sharding.reshard(v * 2.0, P({spec}))\n"
EXPLICIT = (
    HEAD + "from jax.sharding import AxisType\n\nfrom pkg.ops import place\n\n"
    "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit,) * 2)\n\n\n"
    "def main():\n    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)\n    with jax.set_mesh(mesh):\n"
    "        xs = jax.sharding.reshard(x, P('x', None))\n        out = {vmap}(xs)\n    return out, np.asarray(x) * 2.0\n"
)
# Another caller of `place`, outside any vmap: its result goes on to a shard_map reading its placement
OTHER_CALLER = (
    HEAD + "from jax.sharding import AxisType\n\nfrom pkg.ops import place\n\n"
    "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit,) * 2)\n\n\n"
    "def main():\n    x = jnp.arange(8 * 4, dtype=jnp.float32).reshape(8, 4)\n    with jax.set_mesh(mesh):\n"
    "        y = place(x)\n"
    "        out = jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(y)\n"
    "    return out, np.asarray(x) * 2.0 + 1.0\n"
)
SPMD, PLAIN = "jax.vmap(place, spmd_axis_name='x')", "jax.vmap(place)"
LOCAL_WRAPPER = "def _batched(fn, **kw):\n    return jax.vmap(fn, **kw)\n\n\nbatched = _batched\n\n\n"
UNDECIDED = (
    HEAD + "\n" + BEFORE + STEP + CONDITIONAL.format(axis="'x'")
    + "def main():\n    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)\n    plain = Trainer(False).run(x)\n"
    "    return Trainer(True).run(x), np.asarray(plain)\n"
)

VARIANTS = [
    ("1. Base.__init__ (pkg/base.py) sets self.vec; Trainer(Base) applies it", {
        "base.py": BASE, "m.py": m("from pkg.base import Base\n", TRAINER, "Trainer('x').run")}),
    ("2a. `batched = helpers.batched` (**kw wrapper of another module)", {
        "helpers.py": KW, "m.py": m("from pkg import helpers\n", "batched = helpers.batched\n\n\n", "batched(step, spmd_axis_name='x')")}),
    ("2a. after rename 'x' -> 'y' at the call", {
        "helpers.py": KW, "m.py": m("from pkg import helpers\n", "batched = helpers.batched\n\n\n", "batched(step, spmd_axis_name='y')")}),
    ("2a. `batched = _batched` (**kw wrapper of this module)", {
        "m.py": m("", LOCAL_WRAPPER, "batched(step, spmd_axis_name='x')")}),
    ("2b. two returns, each `jax.vmap(fn, ..., **kw)` (another module)", {
        "helpers.py": TWO_VMAPS, "m.py": m("from pkg.helpers import batched\n", "", "batched(step, spmd_axis_name='x')")}),
    ("2b. after add-axis", {
        "helpers.py": TWO_VMAPS,
        "m.py": m("from pkg.helpers import batched\n", "", "batched(step, spmd_axis_name='batch')", AFTER)}),
    ("2b. `return jax.jit(jax.vmap(fn, **kw))` / `return jax.vmap(fn, **kw)`", {
        "helpers.py": JIT_OR_NOT, "m.py": m("from pkg.helpers import batched\n", "", "batched(step, spmd_axis_name='x')")}),
    ("2b. `kw.setdefault('in_axes', 0); return jax.vmap(fn, **kw)` (another module)", {
        "helpers.py": FILLED, "m.py": m("from pkg.helpers import batched\n", "", "batched(step, spmd_axis_name='x')")}),
    ("2b. `v = jax.vmap(fn, spmd_axis_name=ax); return v`, batched(step, 'x')", {
        "helpers.py": ASSIGNED, "m.py": m("from pkg.helpers import batched\n", "", "batched(step, 'x')")}),
    ("2b. `def batched(fn, spmd_axis_name='data')`, its vmap given that parameter; spmd_axis_name='x'", {
        "helpers.py": NAMED, "m.py": m("from pkg.helpers import batched\n", "", "batched(step, spmd_axis_name='x')")}),
    ("2b. after drop-spmd-axis: spmd_axis_name=None at the call (removing it gives the default 'data')", {
        "helpers.py": NAMED, "m.py": m("from pkg.helpers import batched\n", "", "batched(step, spmd_axis_name=None)")}),
    ("2b. the keyword removed instead: batched(step), the default 'data'", {
        "helpers.py": NAMED, "m.py": m("from pkg.helpers import batched\n", "", "batched(step)")}),
    ("2b. if/else: `jax.vmap(fn)` / `jax.vmap(fn, spmd_axis_name=ax)`, batched(step, 'x')", {
        "helpers.py": IF_ELSE, "m.py": m("from pkg.helpers import batched\n", "", "batched(step, 'x')")}),
    ("3. `partial(..., 'x') if flag else jax.vmap`, Trainer(True)", {
        "m.py": m("", CONDITIONAL.format(axis="'x'"), "Trainer(True).run")}),
    ("3. after add-axis", {"m.py": m("", CONDITIONAL.format(axis="'batch'"), "Trainer(True).run", AFTER)}),
    ("3. the same, Trainer(False)", {"m.py": m("", CONDITIONAL.format(axis="'x'"), "Trainer(False).run")}),
    ("3. the same, Trainer(False) then Trainer(True)", {"m.py": UNDECIDED}),
    ("3. `... if SHARD else jax.vmap`, SHARD = True", {"m.py": m("", CONSTANT, "Trainer().run")}),
    ("4. reshard P('x') in ops.py, spmd vmap 'x', batch placed on Explicit 'x'", {
        "ops.py": OPS.format(spec="'x'"), "m.py": EXPLICIT.format(vmap=SPMD)}),
    ("4. after strip: P(None) in ops.py", {"ops.py": OPS.format(spec="None"), "m.py": EXPLICIT.format(vmap=SPMD)}),
    ("4. the same under a plain jax.vmap", {"ops.py": OPS.format(spec="'x'"), "m.py": EXPLICIT.format(vmap=PLAIN)}),
    ("4. after strip (plain vmap)", {"ops.py": OPS.format(spec="None"), "m.py": EXPLICIT.format(vmap=PLAIN)}),
    ("4. another caller, no vmap: shard_map(in_specs=P('x'))(place(x)), eager", {
        "ops.py": OPS.format(spec="'x'"), "m.py": OTHER_CALLER}),
    ("4. the same after the strip of ops.py", {"ops.py": OPS.format(spec="None"), "m.py": OTHER_CALLER}),
    ("4. the reshard names 'y' (spmd vmap 'x')", {"ops.py": OPS.format(spec="'y'"), "m.py": EXPLICIT.format(vmap=SPMD)}),
]


def run(files: dict[str, str]):
    """Writes `files` as package `pkg` in a new directory, imports `pkg.m` and calls its `main()`."""
    root = tempfile.mkdtemp()
    (Path(root) / "pkg").mkdir()
    (Path(root) / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (Path(root) / "pkg" / name).write_text(text)
    for name in [n for n in sys.modules if n == "pkg" or n.startswith("pkg.")]:
        del sys.modules[name]
    sys.path.insert(0, root)
    try:
        return importlib.import_module("pkg.m").main()
    finally:
        sys.path.remove(root)


def measure(files: dict[str, str]) -> str:
    """What `main()` of the package did: the exception's first line, or its result against its reference."""
    try:
        got, reference = run(files)
    except Exception as err:  # noqa: BLE001 - the failure is the measurement
        return _outcome.first_line(err)
    return _outcome.outcome(lambda: got, reference)


if __name__ == "__main__":
    _outcome.header("issue 22: silent spellings across modules")
    for label, files in VARIANTS:
        print(f"{label:{_outcome.WIDTH}} {measure(files)}", flush=True)
