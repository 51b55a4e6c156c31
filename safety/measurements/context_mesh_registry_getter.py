"""A context-mesh getter in a module that reaches the code running under the mesh only through a registry, and
add-axis on that mesh (leftovers8; breaker7's note: callbacks handed over through a registry a third module fills).

Run: `python safety/measurements/context_mesh_registry_getter.py` (8 virtual CPU devices; jax 0.10.2).

The tree is golden/refuse/tree_context_mesh_getter_in_registry_module/input: pkg/train.py's `step(xs)` runs the
spmd vmap and every hook of pkg/registry.py under `with jax.set_mesh(MESH)` and divides by the first hook's
value; pkg/hooks.py registers `replicas` (`get_abstract_mesh().axis_sizes[0]`) with `@registry.register` and is
imported only by tests/conftest.py, which pytest loads. `pytest tests` runs on the input and on the input with
the add-axis edit (`reshape(1, 2, 4)`, `('batch', 'data', 'model')`, a third Auto axis type,
`spmd_axis_name='batch'`).

Measured: before, the test fails with the spmd_axis_name error; after, the program runs and the hook returns 1
instead of 2 (the new size-1 axis comes first), so the test fails on the values: wrong values.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TREE = Path(__file__).resolve().parents[2] / "golden/refuse/tree_context_mesh_getter_in_registry_module/input"
PROBE = """
import jax, sys
import pkg.hooks  # as tests/conftest.py does
from pkg.config import MESH
with jax.set_mesh(MESH):
    print('hook under set_mesh:', pkg.hooks.replicas())
"""


def run(root: Path) -> str:
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu",
               PYTHONPATH=str(root))
    hook = subprocess.run([sys.executable, "-c", PROBE], cwd=root, env=env, capture_output=True, text=True)
    test = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "tests"],
                          cwd=root, env=env, capture_output=True, text=True)
    errors = [line for line in test.stdout.splitlines() if line.startswith("E ")][:2]
    summary = test.stdout.strip().splitlines()[-1] if test.stdout.strip() else test.stderr.strip()[-200:]
    return f"{hook.stdout.strip()} | pytest: {summary} {' '.join(e.strip() for e in errors)[:160]}"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        shutil.copytree(TREE, before)
        print("before:", run(before))
        after = Path(tmp) / "after"
        shutil.copytree(TREE, after)
        cfg = after / "pkg/config.py"
        cfg.write_text(cfg.read_text().replace('reshape(2, 4), ("data"', 'reshape(1, 2, 4), ("batch", "data"').replace(
            "(AxisType.Auto, AxisType.Auto)", "(AxisType.Auto, AxisType.Auto, AxisType.Auto)"))
        train = after / "pkg/train.py"
        train.write_text(train.read_text().replace('spmd_axis_name="data"', 'spmd_axis_name="batch"'))
        print("after add-axis:", run(after))


if __name__ == "__main__":
    main()
