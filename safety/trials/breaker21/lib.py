"""Helpers of breaker21's trials: make a project tree, run spmdfix (a new process each), run a program under JAX.

SPMDFIX_SRC: the spmdfix tree to run (default: the worktree holding this file)."""
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = os.environ.get("SPMDFIX_SRC", str(HERE.parents[2]))
OUT = Path(os.environ.get("B21_OUT", "/tmp/b21/out"))

BASE = {
    "pkg/__init__.py": "",
    "pkg/config.py": '''
        """The mesh of the run and its axis names."""
        import jax
        import numpy as np
        from jax.sharding import Mesh

        DATA = "data"
        MODEL = "model"
        MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))
    ''',
    "pkg/layers.py": '''
        import jax
        import jax.numpy as jnp

        from pkg.config import MESH
        from pkg.specs import activation_spec


        def gelu_block(x):
            spec = activation_spec()
            return jax.shard_map(jax.nn.gelu, mesh=MESH, in_specs=spec, out_specs=spec)(x)


        def residual(x):
            return x + gelu_block(x) * jnp.float32(0.5)
    ''',
    "pkg/specs.py": '''
        """How activations are laid out over the mesh."""
        from jax.sharding import PartitionSpec as P

        from pkg.config import DATA, MODEL


        def activation_spec():
            return P(DATA, MODEL)
    ''',
    "run.py": '''
        import jax
        import numpy as np

        from pkg.config import DATA
        from pkg.layers import residual


        def main():
            xs = np.linspace(-3.0, 3.0, 4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16)
            reference = np.stack([np.asarray(residual(x)) for x in xs])
            return jax.vmap(residual, spmd_axis_name=DATA)(xs), reference
    ''',
}


def make(name: str, files: dict, base: dict | None = BASE, git: bool = True) -> Path:
    """A fresh tree OUT/name holding base updated with files (None value: no such file)."""
    root = OUT / name
    if root.exists():
        shutil.rmtree(root)
    allf = dict(base or {})
    allf.update(files)
    for rel, text in allf.items():
        if text is None:
            continue
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip("\n"))
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        subprocess.run("git add -A && git -c user.name=b -c user.email=b@b commit -qm base", shell=True, cwd=root,
                       check=True)
    settle(root)
    return root


def settle(root: Path, back: float = 10.0) -> None:
    """Set every file's mtime `back` seconds in the past (settled: stamps.RACY_NS)."""
    t = time.time() - back
    for p in root.rglob("*"):
        if ".git" in p.parts or ".spmdfix_cache" in p.parts:
            continue
        try:
            os.utime(p, (t, t), follow_symlinks=False)
        except OSError:
            pass


def spmdfix(root: Path, *args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `python -m spmdfix ARGS` in root with SRC first on the path."""
    e = dict(os.environ, PYTHONPATH=SRC, NO_COLOR="1")
    e.pop("SPMDFIX_CACHE_DIR", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "spmdfix", *args], cwd=root, env=e, text=True, input=stdin,
                          capture_output=True)


def concise(root: Path, *args: str) -> tuple[int, str]:
    """(exit code, concise stdout) of `check --output-format concise ARGS`."""
    r = spmdfix(root, "check", "--output-format", "concise", *args)
    return r.returncode, r.stdout.strip()


def cached_vs_fresh(root: Path, *args: str) -> tuple[bool, str]:
    """Whether a cached check equals a --no-cache one (both new processes); a text saying how."""
    c = concise(root, *args)
    f = concise(root, "--no-cache", *args)
    return c == f, f"cached rc={c[0]}:\n{c[1]}\nfresh rc={f[0]}:\n{f[1]}"


RUNNER = '''
import sys, numpy as np
sys.path.insert(0, ".")
import importlib
mod = importlib.import_module(sys.argv[1])
try:
    got, ref = mod.main()
except Exception as e:
    print("RAISES", type(e).__name__, str(e).splitlines()[0][:150]); sys.exit(3)
ok = np.allclose(np.asarray(got), np.asarray(ref), atol=1e-5)
print("MATCH" if ok else "MISMATCH"); sys.exit(0 if ok else 4)
'''


def run_jax(root: Path, module: str = "run") -> str:
    """Run module.main() under JAX (CPU, 8 devices) in root: MATCH / MISMATCH / RAISES ..."""
    e = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu")
    e.pop("PYTHONPATH", None)
    r = subprocess.run([sys.executable, "-c", RUNNER, module], cwd=root, env=e, text=True, capture_output=True)
    return (r.stdout.strip() or r.stderr.strip().splitlines()[-1]) if (r.stdout or r.stderr) else f"rc={r.returncode}"


def changed(root: Path) -> str:
    """git diff of the tree against its first commit (what fixes wrote)."""
    return subprocess.run(["git", "diff"], cwd=root, text=True, capture_output=True).stdout

BASE = {k: textwrap.dedent(v).lstrip("\n") for k, v in BASE.items()}
