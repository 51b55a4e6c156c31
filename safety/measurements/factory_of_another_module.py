"""breaker8: an spmd vmap whose factory or alias lives in another module of the project (spmdfix was silent).

Run: `python safety/measurements/factory_of_another_module.py` (8 virtual CPU devices; jax 0.10.2).

Each variant is a package `pkg` (written to a temporary directory and imported): pkg/model.py holds `step`, a
shard_map over `P('x')` on a `(2, 4)` mesh `('x', 'y')`; pkg/utils.py holds the vmap's other half; pkg/m.py
applies it and its `main()` returns `(result, reference)`:

1. `per_example = functools.partial(jax.vmap, spmd_axis_name='x')` in utils.py, applied in m.py as
   `utils.per_example(step)`, as `jax.jit(per_example(step))` (`from pkg.utils import per_example`), and as a
   decorator `@per_example` over a def calling `step`;
2. `vmap = jax.vmap` in utils.py, applied in m.py as `utils.vmap(step, spmd_axis_name='x')`, before and after
   add-axis (mesh `(1, 2, 4)` `('batch', 'x', 'y')`, `spmd_axis_name='batch'`) and drop-spmd-axis;
3. a compat module re-exporting JAX's names: `from jax import vmap` in utils.py with `utils.vmap(step,
   spmd_axis_name='x')` (and after add-axis), and `from jax import shard_map` in utils.py used by pkg/model.py
   as `utils.shard_map(...)` under `jax.vmap(step, spmd_axis_name='x')`.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from pathlib import Path

import _outcome  # noqa: F401 - sets 8 devices before jax is imported

MODEL = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "mesh = Mesh(np.array(jax.devices()).reshape({shape}), ({names}))\n\n\n"
    "def step(v):\n    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n"
)
BEFORE = MODEL.format(shape="2, 4", names="'x', 'y'")
AFTER = MODEL.format(shape="1, 2, 4", names="'batch', 'x', 'y'")
FACTORY = "import functools\n\nimport jax\n\nper_example = functools.partial(jax.vmap, spmd_axis_name='x')\n"
ALIAS = "import jax\n\nvmap = jax.vmap\n"
HEAD = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\nfrom pkg import utils\nfrom pkg.model import step\n"
MAIN = "\n\ndef main():\n    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)\n    return {call}(x), np.asarray(x) * 2.0\n"

VARIANTS = [
    ("1. utils.per_example(step)", {"utils.py": FACTORY, "model.py": BEFORE, "m.py": HEAD + MAIN.format(call="utils.per_example(step)")}),
    ("1. jax.jit(per_example(step)), name imported", {
        "utils.py": FACTORY, "model.py": BEFORE,
        "m.py": HEAD + "from pkg.utils import per_example\n" + MAIN.format(call="jax.jit(per_example(step))"),
    }),
    ("1. @per_example over a def", {
        "utils.py": FACTORY, "model.py": BEFORE,
        "m.py": HEAD + "from pkg.utils import per_example\n\n\n@per_example\ndef run(v):\n    return step(v)\n" + MAIN.format(call="run"),
    }),
    ("2. utils.vmap(step, spmd_axis_name='x')", {
        "utils.py": ALIAS, "model.py": BEFORE, "m.py": HEAD + MAIN.format(call="utils.vmap(step, spmd_axis_name='x')"),
    }),
    ("2. after add-axis", {
        "utils.py": ALIAS, "model.py": AFTER, "m.py": HEAD + MAIN.format(call="utils.vmap(step, spmd_axis_name='batch')"),
    }),
    ("2. after drop-spmd-axis", {"utils.py": ALIAS, "model.py": BEFORE, "m.py": HEAD + MAIN.format(call="utils.vmap(step)")}),
    ("3. from jax import vmap re-exported", {
        "utils.py": "from jax import vmap  # noqa: F401\n", "model.py": BEFORE,
        "m.py": HEAD + MAIN.format(call="utils.vmap(step, spmd_axis_name='x')"),
    }),
    ("3. ... after add-axis", {
        "utils.py": "from jax import vmap  # noqa: F401\n", "model.py": AFTER,
        "m.py": HEAD + MAIN.format(call="utils.vmap(step, spmd_axis_name='batch')"),
    }),
    ("3. from jax import shard_map re-exported", {
        "utils.py": "from jax import shard_map  # noqa: F401\n",
        "model.py": BEFORE.replace("import jax\n", "import jax\nfrom pkg import utils\n", 1).replace("jax.shard_map(", "utils.shard_map("),
        "m.py": HEAD + MAIN.format(call="jax.vmap(step, spmd_axis_name='x')"),
    }),
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
    _outcome.header("breaker8: vmap factories and aliases of another module")
    for label, files in VARIANTS:
        print(f"{label:<{_outcome.WIDTH}} {measure(files)}")
