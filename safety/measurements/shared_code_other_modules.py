"""Holes found by the breaker session: uses of a fix's entities that the judgement did not see.

Run: `python safety/measurements/shared_code_other_modules.py` (8 virtual CPU devices; jax 0.10.2).

The script writes a package per variant into a temporary directory and imports it, before and after the fix
spmdfix applied as safe (the fix made by hand here, as `spmdfix fix` wrote it):

1. add-axis, the mesh held by a class attribute (`class C: mesh = MESH`, read as `C.mesh.devices.shape[0]`,
   in the mesh's module and in another module): the value before -> after;
2. add-axis, the mesh made the context mesh at module level of its module (`jax.set_mesh(MESH)`) and read in
   another module through `len(jax.sharding.get_abstract_mesh().axis_names)`; and made the context mesh by a
   `with jax.set_mesh(MESH):` around a call of a module that does not import the mesh's module;
3. rename `'x' -> 'y'` (and add-axis) in a wrapper `def batched(fn): return jax.vmap(fn,
   spmd_axis_name='x')` that another module calls with a function reaching a shard_map over a one-axis mesh
   `('x',)`;
4. add-axis on `self.vec = functools.partial(jax.vmap, spmd_axis_name=axis)` (the keyword becomes `'batch'`)
   with the class constructed in another module as `Trainer('y')` and applied to a shard_map over a mesh
   `('y',)`.
Each prints the other module's value or outcome before -> after.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from pathlib import Path

import _outcome  # noqa: F401 - sets 8 devices before jax is imported

HEAD = "import functools\nimport jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n"
MESH_BEFORE = "MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n"
MESH_AFTER = "MESH = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'data', 'model'))\n"


def load(files: dict[str, str], module: str, attr: str):
    """Writes `files` as package `pkg` in a new directory and returns `module`'s `attr` (called when callable)."""
    root = tempfile.mkdtemp()
    (Path(root) / "pkg").mkdir()
    (Path(root) / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (Path(root) / "pkg" / name).write_text(text)
    for name in [m for m in sys.modules if m == "pkg" or m.startswith("pkg.")]:
        del sys.modules[name]
    sys.path.insert(0, root)
    try:
        value = getattr(importlib.import_module(f"pkg.{module}"), attr)
        return value() if callable(value) else value
    except Exception as err:  # noqa: BLE001 - what happened is the measurement
        return _outcome.first_line(err)
    finally:
        sys.path.remove(root)


def row(label: str, before, after) -> None:
    print(f"{label:<{_outcome.WIDTH}} {before} -> {after}")


def class_attribute() -> None:
    reader = "from .config import MESH\n\n\nclass C:\n    mesh = MESH\n\n\nG = C.mesh.devices.shape[0]\n"
    row(
        "1. `class C: mesh = MESH`; `C.mesh.devices.shape[0]` in another module",
        load({"config.py": HEAD + MESH_BEFORE, "reader.py": reader}, "reader", "G"),
        load({"config.py": HEAD + MESH_AFTER, "reader.py": reader}, "reader", "G"),
    )
    method = "from .config import MESH\n\n\nclass C:\n    def get(self):\n        return MESH\n\n\nG = C().get().devices.shape[0]\n"
    row(
        "1. a method returning MESH; `C().get().devices.shape[0]` in another module",
        load({"config.py": HEAD + MESH_BEFORE, "reader.py": method}, "reader", "G"),
        load({"config.py": HEAD + MESH_AFTER, "reader.py": method}, "reader", "G"),
    )


def context_mesh() -> None:
    reader = "import jax\nimport pkg.config\n\nG = len(jax.sharding.get_abstract_mesh().axis_names)\n"
    row(
        "2. `jax.set_mesh(MESH)` in config.py; `len(get_abstract_mesh().axis_names)` in another module",
        load({"config.py": HEAD + MESH_BEFORE + "jax.set_mesh(MESH)\n", "reader.py": reader}, "reader", "G"),
        load({"config.py": HEAD + MESH_AFTER + "jax.set_mesh(MESH)\n", "reader.py": reader}, "reader", "G"),
    )
    util = "import jax\n\n\ndef n():\n    return len(jax.sharding.get_abstract_mesh().axis_names)\n"
    caller = "import jax\nfrom pkg.config import MESH\nfrom pkg.util import n\n\nwith jax.set_mesh(MESH):\n    G = n()\n"
    row(
        "2. `with jax.set_mesh(MESH): n()`, n in a module not importing config.py",
        load({"config.py": HEAD + MESH_BEFORE, "util.py": util, "reader.py": caller}, "reader", "G"),
        load({"config.py": HEAD + MESH_AFTER, "util.py": util, "reader.py": caller}, "reader", "G"),
    )


OTHER = (
    HEAD
    + "from pkg.m import {name}\n\nmesh2 = Mesh(np.array(jax.devices()), ('{axis}',))\n\n\n"
    + "def step2(v):\n    return jax.shard_map(lambda b: b * 3.0, mesh=mesh2, in_specs=P(), out_specs=P())(v)\n\n\n"
    + "def main():\n    x = np.arange(32, dtype=np.float32).reshape(8, 4)\n    return float({call}(step2)(x).sum())\n"
)


def wrapper() -> None:
    other = OTHER.format(name="batched", axis="x", call="batched")
    for after in ("y", "batch"):
        row(
            f"3. `batched(fn)` with spmd_axis_name 'x' -> {after!r}, called by another module on a ('x',) mesh",
            load({"m.py": HEAD + "def batched(fn):\n    return jax.vmap(fn, spmd_axis_name='x')\n", "other.py": other}, "other", "main"),
            load(
                {"m.py": HEAD + f"def batched(fn):\n    return jax.vmap(fn, spmd_axis_name={after!r})\n", "other.py": other},
                "other",
                "main",
            ),
        )


def self_factory() -> None:
    other = OTHER.format(name="Trainer", axis="y", call="Trainer('y').vec")
    cls = "class Trainer:\n    def __init__(self, axis):\n        self.vec = functools.partial(jax.vmap, spmd_axis_name={})\n"
    row(
        "4. `self.vec = partial(jax.vmap, spmd_axis_name=axis)` -> 'batch'; `Trainer('y')` in another module",
        load({"m.py": HEAD + cls.format("axis"), "other.py": other}, "other", "main"),
        load({"m.py": HEAD + cls.format("'batch'"), "other.py": other}, "other", "main"),
    )


if __name__ == "__main__":
    class_attribute()
    wrapper()
    self_factory()
    context_mesh()  # (last: `jax.set_mesh` as a statement sets the process's context mesh)
