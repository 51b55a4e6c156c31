"""A pytest fixture returning the mesh, and add-axis on that mesh (breaker7 s03).

Run: `python safety/measurements/pytest_fixture_mesh_add_axis.py` (8 virtual CPU devices; jax 0.10.2; pytest).

The tree is golden/refuse/tree_pytest_fixture_returns_mesh/input: pkg/config.py's (2, 4) mesh, a shard_map over
`P('data')` in pkg/model.py under `jax.vmap(..., spmd_axis_name='data')`; tests/conftest.py's fixture `mesh`
returns `config.MESH` (nothing calls or imports it: pytest gives its value to each test with a parameter named
`mesh`), and tests/test_layout.py asserts `16 // mesh.devices.shape[0] == 8`. Each variant runs in a subprocess:
`run.main()` (the program, against its reference) and `pytest tests` (the project's tests); the variants are the
input and the input with the add-axis edit (`reshape(1, 2, 4)`, `('batch', 'data', 'model')`,
`spmd_axis_name='batch'`).

Measured: before, the program raises the spmd_axis_name error and the test passes; after add-axis, the program
runs and matches, and the test fails (`mesh.devices.shape[0]` is 1: `16 // 1 == 8` is false).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TREE = Path(__file__).resolve().parents[2] / "golden/refuse/tree_pytest_fixture_returns_mesh/input"
PROGRAM = """
import numpy as np, run
try:
    out, ref = run.main()
    print('program:', 'match' if np.allclose(out, ref, atol=1e-5) else 'WRONG')
except Exception as e:
    print('program: raises', type(e).__name__, str(e).splitlines()[0][:70])
"""


def run(root: Path) -> str:
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu",
               PYTHONPATH=str(root))
    p = subprocess.run([sys.executable, "-c", PROGRAM], cwd=root, env=env, capture_output=True, text=True)
    t = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "tests"],
                       cwd=root, env=env, capture_output=True, text=True)
    tests = t.stdout.strip().splitlines()[-1] if t.stdout.strip() else t.stderr.strip()[-200:]
    return f"{p.stdout.strip() or p.stderr.strip().splitlines()[-1]}; pytest: {tests}"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        shutil.copytree(TREE, before)
        print("before:", run(before))
        after = Path(tmp) / "after"
        shutil.copytree(TREE, after)
        cfg = after / "pkg/config.py"
        cfg.write_text(cfg.read_text().replace('reshape(2, 4), ("data"', 'reshape(1, 2, 4), ("batch", "data"'))
        model = after / "pkg/model.py"
        model.write_text(model.read_text().replace('spmd_axis_name="data"', 'spmd_axis_name="batch"'))
        print("after add-axis:", run(after))


if __name__ == "__main__":
    main()
