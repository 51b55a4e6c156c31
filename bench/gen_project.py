"""Generate a JAX project of about N modules for timing partial runs (`spmdfix check ONE_MODULE`).

    python bench/gen_project.py DIR [--modules 1000] [--seed 0]

The project (bench/README.md, "Partial runs on a generated project"): `pyproject.toml`, `.git/` (empty: a
work tree root), and `src/proj/` with sub-packages of plain modules. Each plain module is 150-300 lines of
ordinary JAX and NumPy code (functions, a dataclass, a small class with methods, docstrings, comments) and
imports 3-8 other modules of the project, chosen with a skewed fan-in (a few core modules, `utils`,
`config`, `layers`, are imported by hundreds, most by a handful), as real codebases are. `proj/config.py`
holds the mesh and its axis names; `proj/layers.py` the shard_map'd layer whose spec names `DATA`;
`proj/train.py` and one module in a hundred hold `jax.vmap(..., spmd_axis_name=config.DATA)` over it (the
collision a partial run of `layers.py` must report). Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

CONFIG = '''"""Mesh and axis names of the project."""
import jax
import numpy as np
from jax.sharding import Mesh

DATA = "data"
MODEL = "model"
MESH = Mesh(np.array(jax.devices()).reshape(4, 2), (DATA, MODEL))
'''

LAYERS = '''"""The shard_map'd layers."""
import jax
from jax.sharding import PartitionSpec as P

from proj.config import DATA, MESH, MODEL
from proj import utils


def _body(x, w):
    return utils.scale(x) @ w


def forward(x, w):
    return jax.shard_map(_body, mesh=MESH, in_specs=(P(DATA, None), P(None, MODEL)), out_specs=P(DATA, MODEL))(x, w)
'''

TRAIN = '''"""Training step: batches of the layer, placed on the data axis."""
import jax

from proj import config
from proj.layers import forward


def step(xs, w):
    return jax.vmap(forward, in_axes=(0, None), spmd_axis_name=config.DATA)(xs, w)
'''

UTILS = '''"""Small helpers every module uses."""
import jax.numpy as jnp


def scale(x):
    return x * 0.5


def clip(x, lo=-1.0, hi=1.0):
    return jnp.clip(x, lo, hi)
'''


def plain_module(rng: random.Random, name: str, imports: list[str], spmd: bool) -> str:
    """A module of ordinary JAX code importing `imports` (dotted names of the project)."""
    lines = [f'"""{name}: generated module for spmdfix\'s partial-run benchmark."""', "from __future__ import annotations", ""]
    lines += ["import dataclasses", "import functools", "", "import jax", "import jax.numpy as jnp", "import numpy as np", ""]
    aliases = []
    for i, module in enumerate(imports):
        alias = f"m{i}"
        package, _, leaf = module.rpartition(".")
        lines.append(f"from {package} import {leaf} as {alias}")
        aliases.append(alias)
    if spmd:
        lines += ["from proj import config", "from proj.layers import forward"]
    lines += ["", ""]
    for k in range(rng.randint(6, 12)):
        lines += [
            f"def fn_{k}(x, y=None):",
            f'    """Step {k} of {name}: combine, normalise, reduce."""',
            "    # keep the shapes aligned before the reduction",
            "    z = jnp.tanh(x) * 2.0 + (0 if y is None else y)",
            f"    z = z / (jnp.linalg.norm(z) + 1e-{rng.randint(3, 8)})",
            "    for _ in range(2):",
            "        z = jnp.where(z > 0, z, z * 0.1)",
        ]
        if aliases:
            lines.append(f"    z = {rng.choice(aliases)}.fn_{rng.randint(0, 5)}(z)")
        lines += ["    return jnp.sum(z, axis=-1)", "", ""]
    lines += [
        "@dataclasses.dataclass(frozen=True)",
        "class Settings:",
        '    """What the steps of this module read."""',
        "",
        "    width: int = 128",
        "    depth: int = 4",
        "    rate: float = 1e-3",
        "",
        "",
        "class Runner:",
        '    """Runs the steps in order."""',
        "",
        "    def __init__(self, settings: Settings):",
        "        self.settings = settings",
        "        self.history = []",
        "",
        "    def run(self, x):",
        "        for i in range(self.settings.depth):",
        "            x = fn_0(x) if i % 2 else fn_1(x)",
        "            self.history.append(float(np.asarray(x).mean()))",
        "        return x",
        "",
        "    @functools.cached_property",
        "    def jitted(self):",
        "        return jax.jit(self.run)",
        "",
    ]
    if spmd:
        lines += ["", "def batched(xs, w):", "    return jax.vmap(forward, in_axes=(0, None), spmd_axis_name=config.DATA)(xs, w)", ""]
    return "\n".join(lines) + "\n"


def generate(root: Path, modules: int, seed: int = 0) -> None:
    """Write the project (see the module doc) into `root`."""
    rng = random.Random(seed)
    src = root / "src" / "proj"
    src.mkdir(parents=True, exist_ok=True)
    (root / ".git").mkdir(exist_ok=True)
    (root / "pyproject.toml").write_text('[project]\nname = "proj"\nversion = "0"\n')
    (src / "__init__.py").write_text("")
    (src / "config.py").write_text(CONFIG)
    (src / "layers.py").write_text(LAYERS)
    (src / "train.py").write_text(TRAIN)
    (src / "utils.py").write_text(UTILS)
    packages = [f"sub{i}" for i in range(max(1, modules // 50))]
    names = []
    for i in range(modules - 4):
        package = packages[i % len(packages)]
        names.append(f"proj.{package}.mod{i}")
    for package in packages:
        (src / package).mkdir(exist_ok=True)
        (src / package / "__init__.py").write_text("")
    # Skewed fan-in: module k is chosen with weight 1 / (k + 1) (a few are imported by hundreds).
    weights = [1.0 / (k + 1) for k in range(len(names))]
    for i, name in enumerate(names):
        count = rng.randint(3, 8)
        earlier = names[:i] if i else []
        picks = set(rng.choices(earlier, weights[: len(earlier)], k=count)) if earlier else set()
        picks.add("proj.utils")
        spmd = i % 100 == 50
        text = plain_module(rng, name, sorted(picks), spmd)
        path = src / name.split(".")[1] / (name.split(".")[2] + ".py")
        path.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--modules", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    generate(args.directory, args.modules, args.seed)


if __name__ == "__main__":
    main()
