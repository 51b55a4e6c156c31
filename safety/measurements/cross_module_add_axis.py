"""Issue 20: the config/model/train layout, fixed by a hand-made add-axis across files.

Run: `python safety/measurements/cross_module_add_axis.py` (8 virtual CPU devices; jax 0.10.2).

The script writes a package per variant into a temporary directory and imports it:
- `config.py`: `DATA, MODEL = 'data', 'model'`; `MESH` a (2, 4) mesh `(DATA, MODEL)` (before), or a (1, 2, 4)
  mesh `('batch', DATA, MODEL)` (after add-axis). MESH is `Mesh(np.array(jax.devices()).reshape(...), ...)`
  (Auto) or `jax.make_mesh(...)` (its default, Explicit);
- `model.py`: `forward(x, w)` = `shard_map(lambda a, b: a @ b, mesh=MESH, in_specs=(P(DATA, None),
  P(None, MODEL)), out_specs=P(DATA, MODEL), check_vma=CV)(x, w)` (the specs use every mesh axis);
- `train.py`: `step = jax.vmap(forward, in_axes=(0, None), spmd_axis_name=DATA)` (before) or `'batch'` (after);
- `reader.py`: another module reading `MESH.devices.shape[0]`, `len(MESH.axis_names)`,
  `list(MESH.shape)` (iterating the mesh's shape; a Mesh itself is not iterable), `MESH.shape[MODEL]`
  and `MESH.size`.
Part 1 prints each reader value before -> after. Part 2 runs `train.step(xs, w)` (xs (4, 8, 16), w (16, 8)),
eager and under `jax.jit`, both `check_vma` values, against numpy `xs @ w`; on the Explicit mesh the inputs are
placed as the specs say (`P(None, DATA, None)`, `P(None, MODEL)`), and after the fix also with the batch on
the new axis (`P('batch', DATA, None)`, what docs/safety.md row 18 asks of eager callers). Part 3 runs `reader.scale(train.step(xs, w))`
(`y * MESH.devices.shape[0] + len(MESH.axis_names)`) against numpy with the values read before the fix.
"""

from __future__ import annotations

import importlib
import itertools
import sys
import tempfile
from pathlib import Path

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from _outcome import header, show_group

CONFIG = {
    ("Auto", "before"): "MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))",
    ("Auto", "after"): "MESH = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', DATA, MODEL))",
    ("Explicit", "before"): "MESH = jax.make_mesh((2, 4), (DATA, MODEL))",
    ("Explicit", "after"): "MESH = jax.make_mesh((1, 2, 4), ('batch', DATA, MODEL))",
}
FILES = {
    "__init__.py": "",
    "config.py": "import jax\nimport numpy as np\nfrom jax.sharding import Mesh\n\nDATA, MODEL = 'data', 'model'\n"
                 "{mesh}\n",
    "model.py": "import jax\nfrom jax.sharding import PartitionSpec as P\n\nfrom .config import DATA, MESH, MODEL\n\n"
                "CV = {cv}\n\n\ndef forward(x, w):\n"
                "    return jax.shard_map(lambda a, b: a @ b, mesh=MESH, in_specs=(P(DATA, None), P(None, MODEL)),\n"
                "                         out_specs=P(DATA, MODEL), check_vma=CV)(x, w)\n",
    "train.py": "import jax\n\nfrom .config import DATA\nfrom .model import forward\n\n"
                "step = jax.vmap(forward, in_axes=(0, None), spmd_axis_name={spmd})\n",
    "reader.py": "from .config import MESH, MODEL\n\nGROUPS = MESH.devices.shape[0]\nN_AXES = len(MESH.axis_names)\n"
                 "AXES = [name for name in MESH.shape]\nMODEL_SIZE = MESH.shape[MODEL]\nSIZE = MESH.size\n\n\n"
                 "def scale(y):\n    return y * GROUPS + N_AXES\n",
}
XS = (np.arange(4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16) % 7 - 3.0) / 4.0
W = (np.arange(16 * 8, dtype=np.float32).reshape(16, 8) % 5 - 2.0) / 3.0
REF = XS @ W


def package(root: Path, kind: str, stage: str, cv: bool, part: int):
    """Write and import the package of one variant; returns (config, train, reader) modules."""
    name = f"layout{part}_{kind.lower()}_{stage}_{'cv' if cv else 'nocv'}"
    pkg = root / name
    pkg.mkdir()
    spmd = "DATA" if stage == "before" else "'batch'"
    for file, text in FILES.items():
        (pkg / file).write_text(text.format(mesh=CONFIG[(kind, stage)], cv=cv, spmd=spmd))
    return tuple(importlib.import_module(f"{name}.{m}") for m in ("config", "train", "reader"))


def inputs(config, kind, batch_axis=None):
    if kind == "Auto":
        return XS, W
    return (jax.device_put(XS, NamedSharding(config.MESH, P(batch_axis, config.DATA, None))),
            jax.device_put(W, NamedSharding(config.MESH, P(None, config.MODEL))))


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("issue 20 layout: add-axis by hand across config.py and train.py", variants)
    root = Path(tempfile.mkdtemp(prefix="spmd_layout_"))
    sys.path.insert(0, str(root))
    # one package per part and variant: an eager call of the same function object that once ran with the batch
    # placed on 'batch' later runs with an unplaced batch too (JAX caches it; see the README), so no function
    # is called under two placements
    every = list(itertools.product(("Auto", "Explicit"), ("before", "after"), (True, False)))
    mods = {(k, s, cv): package(root, k, s, cv, 2) for k, s, cv in every}
    placed = {(k, s, cv): package(root, k, s, cv, 22) for k, s, cv in every}
    scaled = {(k, s, cv): package(root, k, s, cv, 3) for k, s, cv in every}
    print("-- part 1: reader.py's values, before -> after")
    for kind, attr in itertools.product(("Auto", "Explicit"), ("GROUPS", "N_AXES", "AXES", "MODEL_SIZE", "SIZE")):
        before, after = (getattr(mods[(kind, s, True)][2], attr) for s in ("before", "after"))
        print(f"{kind:8} reader.{attr:10} {before!s:28} {'kept' if before == after else f'changed -> {after}'}")
    print("-- part 2: train.step(xs, w) against numpy xs @ w")
    settings = [("Auto", "before", None), ("Auto", "after", None), ("Explicit", "before", None),
                ("Explicit", "after", None), ("Explicit", "after", "batch")]
    for kind, stage, batch_axis in settings:
        runs = {}
        for cv, jit in itertools.product((True, False), (False, True)):
            config, train, _ = (placed if batch_axis else mods)[(kind, stage, cv)]
            step = jax.jit(train.step) if jit else train.step
            runs[f"cv={cv} {'jit' if jit else 'eager'}"] = (
                lambda step=step, config=config, b=batch_axis: step(*inputs(config, kind, b)))
        where = " batch on 'batch'" if batch_axis else ""
        show_group(f"{kind:8} {stage + ' add-axis' + where:32} train.step", runs, REF)
    print("-- part 3: reader.scale(train.step(xs, w)) against numpy with reader's values before the fix")
    for kind, stage in itertools.product(("Auto", "Explicit"), ("before", "after")):
        ref_reader = mods[(kind, "before", True)][2]
        ref = REF * ref_reader.GROUPS + ref_reader.N_AXES
        runs = {}
        for cv, jit in itertools.product((True, False), (False, True)):
            config, train, reader = scaled[(kind, stage, cv)]
            step = jax.jit(train.step) if jit else train.step
            runs[f"cv={cv} {'jit' if jit else 'eager'}"] = (
                lambda step=step, config=config, reader=reader: reader.scale(step(*inputs(config, kind))))
        show_group(f"{kind:8} {stage + ' add-axis':32} reader.scale(train.step)", runs, ref)


if __name__ == "__main__":
    main()
