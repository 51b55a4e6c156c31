"""A repository of two services whose packages share a name (`svc_a/pkg`, `svc_b/pkg`): what a relative import
reads, and what add-axis on svc_b's mesh does to a reader of it (breaker7 s02, s33).

Run: `python safety/measurements/monorepo_same_package_relative_reader.py` (8 virtual CPU devices; jax 0.10.2).

The tree is golden/refuse/tree_monorepo_same_package_relative_mesh_reader/input: svc_a/pkg/config.py holds a (4, 2)
mesh, svc_b/pkg/config.py a (2, 4) one; svc_b/pkg/eval.py reads `from .config import MESH` and returns
`global_batch // MESH.devices.shape[0]`; run.py puts svc_b first on `sys.path` (as `python svc_b/main.py` does).
Each variant runs in a subprocess: the input, and the input with the add-axis edit of svc_b's mesh
(`reshape(1, 2, 4)`, `('batch', 'data', 'model')`, `spmd_axis_name='batch'`). Printed: which config the relative
import loaded (its mesh's shape), `per_replica(8)`, and the program's outcome against its reference.

Measured: the relative import loads svc_b's config (shape (2, 4), never svc_a's (4, 2), although `pkg.config`
of svc_a is listed first); `per_replica(8)` is 4 before and 8 after; before the program raises the
spmd_axis_name error, after it runs and returns a (8, 8) result against the (4, 8) reference: a wrong result.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TREE = Path(__file__).resolve().parents[2] / "golden/refuse/tree_monorepo_same_package_relative_mesh_reader/input"
PROBE = """
import numpy as np, run
sys_path = __import__('sys').path
try:
    out, ref = run.main()
    from pkg.config import MESH
    from pkg.eval import per_replica
    ok = np.shape(out) == np.shape(ref) and np.allclose(out, ref, atol=1e-5)
    print('mesh', dict(MESH.shape), 'per_replica(8) =', per_replica(8), 'result', np.shape(out), 'match' if ok else 'WRONG')
except Exception as e:
    from pkg.config import MESH
    print('mesh', dict(MESH.shape), 'raises', type(e).__name__, str(e).splitlines()[0][:80])
"""


def run(root: Path) -> str:
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu")
    p = subprocess.run([sys.executable, "-c", PROBE], cwd=root, env=env, capture_output=True, text=True)
    return (p.stdout.strip() or p.stderr.strip().splitlines()[-1])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        shutil.copytree(TREE, before)
        print("before:", run(before))
        after = Path(tmp) / "after"
        shutil.copytree(TREE, after)
        cfg = after / "svc_b/pkg/config.py"
        cfg.write_text(cfg.read_text().replace("reshape(2, 4), (", "reshape(1, 2, 4), (\"batch\", "))
        model = after / "svc_b/pkg/train.py"
        model.write_text(model.read_text().replace('spmd_axis_name="data"', 'spmd_axis_name="batch"'))
        print("after add-axis:", run(after))


if __name__ == "__main__":
    main()
