"""A context-mesh getter in a module that only a callback reaches, and add-axis on that mesh (breaker7 s13).

Run: `python safety/measurements/context_mesh_callback_getter.py` (8 virtual CPU devices; jax 0.10.2).

The tree is golden/refuse/tree_context_mesh_getter_in_callback_module/input: pkg/train.py's `step(xs, on_step)`
runs the spmd vmap and `on_step()` under `with jax.set_mesh(MESH)`; run.py hands it `hooks.replicas`, and
pkg/hooks.py (which imports nothing of the project) returns `jax.sharding.get_abstract_mesh().axis_sizes[0]`.
Each variant runs `run.main()` in a subprocess against its reference: the input, and the input with the add-axis
edit (`reshape(1, 2, 4)`, `('batch', 'data', 'model')`, `spmd_axis_name='batch'`).

Measured: before, the spmd_axis_name error; after, the program runs and the hook returns 1 instead of 2 (the
new size-1 axis comes first), so the result is half the reference: wrong values.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TREE = Path(__file__).resolve().parents[2] / "golden/refuse/tree_context_mesh_getter_in_callback_module/input"
PROBE = """
import jax, numpy as np, run
from pkg.config import MESH
from pkg import hooks
with jax.set_mesh(MESH):
    seen = hooks.replicas()
try:
    out, ref = run.main()
    print('hook under set_mesh:', seen, '| program:', 'match' if np.allclose(out, ref, atol=1e-5) else 'WRONG values')
except Exception as e:
    print('hook under set_mesh:', seen, '| program raises', type(e).__name__, str(e).splitlines()[0][:70])
"""


def run(root: Path) -> str:
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu")
    p = subprocess.run([sys.executable, "-c", PROBE], cwd=root, env=env, capture_output=True, text=True)
    return p.stdout.strip() or p.stderr.strip().splitlines()[-1]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        shutil.copytree(TREE, before)
        print("before:", run(before))
        after = Path(tmp) / "after"
        shutil.copytree(TREE, after)
        cfg = after / "pkg/config.py"
        cfg.write_text(cfg.read_text().replace('reshape(2, 4), ("data"', 'reshape(1, 2, 4), ("batch", "data"'))
        train = after / "pkg/train.py"
        train.write_text(train.read_text().replace('spmd_axis_name="data"', 'spmd_axis_name="batch"'))
        print("after add-axis:", run(after))


if __name__ == "__main__":
    main()
