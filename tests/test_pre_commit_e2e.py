"""A real pre-commit run (issue 20): README's hook configuration stops a commit that touches only the layer module.

A temporary git repository holds a package of the standard layout (pyproject.toml, src/pkg/config.py with the
mesh and its axis names, model.py with a shard_map'd layer, train.py with `jax.vmap(..., spmd_axis_name=DATA)`
calling it). Its first commit passes the hooks. Then only model.py changes: the layer's specs gain `DATA`, which
the vmap of train.py (not staged, not passed to the hooks) already uses; `git commit` must fail and say where
the collision is. A later commit of an unrelated file passes.

Two configurations, both taken from README.md:
- the `.pre-commit-config.yaml` snippet verbatim (a `repo: local` hook with `language: system`, running the
  `spmdfix` console script of this interpreter's environment, importing this tree through PYTHONPATH);
- the form README gives for a tagged release: `repo:` a git repository of this tree, `rev:` its commit, the
  snippet's hook ids, which use the shipped `.pre-commit-hooks.yaml`. pre-commit then installs spmdfix from that
  repository into an environment of its own, with pip from the package index (network needed). The repository
  is a commit of this tree as it is on disk (tracked and untracked files, `.gitignore` respected), so changes
  not yet committed are what is tested.

pre-commit comes from the test extra (PyPI); the test skips, saying why, only when pre-commit or git cannot
start.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from golden import ROOT

pytestmark = pytest.mark.e2e  # git, pre-commit and the hooks' processes

README = ROOT / "README.md"
HOOK_INSTALL_TIMEOUT_S = 900  # the tagged-release form: pre-commit builds a virtualenv and pip installs spmdfix

PYPROJECT = """\
[project]
name = "pkg"
version = "0"

# The team's choice: fixes that move the batch to other devices are reviewed by hand (README, settings).
[tool.spmdfix]
layout-changing-fixes = "unsafe"
"""

CONFIG = """\
import jax
import numpy as np
from jax.sharding import Mesh

DATA = "data"
MODEL = "model"
MESH = Mesh(np.array(jax.devices()).reshape(4, 2), (DATA, MODEL))
"""

MODEL = """\
import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH, MODEL


def _layer(w, x):
    return x @ w


def layer(w, x):
    return jax.shard_map(_layer, mesh=MESH, in_specs=(P(None, MODEL), P()), out_specs=P(None, MODEL))(w, x)
"""

# The only edit of the failing commit: the layer's specs name `DATA`, the axis train.py's vmap gives.
MODEL_WITH_DATA = MODEL.replace("import MESH, MODEL", "import DATA, MESH, MODEL").replace(
    "in_specs=(P(None, MODEL), P()), out_specs=P(None, MODEL)",
    "in_specs=(P(None, MODEL), P(DATA, None)), out_specs=P(DATA, MODEL)",
)
SPEC_LINE = 12
IN_SPEC_COL = MODEL_WITH_DATA.splitlines()[SPEC_LINE - 1].index("DATA") + 1
OUT_SPEC_COL = MODEL_WITH_DATA.splitlines()[SPEC_LINE - 1].index("P(DATA, MODEL)") + 3

TRAIN = """\
import jax

from pkg.config import DATA
from pkg.model import layer


def step(w, xs):
    return jax.vmap(layer, in_axes=(None, 0), spmd_axis_name=DATA)(w, xs)
"""

UTILS = '''\
def describe(step):
    """What a training step is called in the logs."""
    return f"step {step}"
'''


def readme_config() -> dict:
    """README's `.pre-commit-config.yaml` snippet, parsed (as tests/test_docs.py reads it)."""
    text = README.read_text(encoding="utf-8")
    return yaml.safe_load(text.split("# .pre-commit-config.yaml\n", 1)[1].split("```", 1)[0])


def clean_env(tmp_path: Path) -> dict[str, str]:
    """The environment of every git and pre-commit process: no GIT_* variable of a surrounding git (a test run
    from a hook), no user or system git configuration but a committer, pre-commit's store under `tmp_path`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "PRE_COMMIT_HOME"}
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text("[user]\n\tname = spmdfix test\n\temail = test@example.invalid\n[init]\n\tdefaultBranch = main\n")
    env.update(
        GIT_CONFIG_GLOBAL=str(gitconfig),
        GIT_CONFIG_NOSYSTEM="1",
        PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
        PRE_COMMIT_COLOR="never",
    )
    return env


def run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture
def tools(tmp_path: Path) -> dict[str, str]:
    """git and pre-commit (this interpreter's module), each started once; skips saying which cannot start."""
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not on PATH")
    env = clean_env(tmp_path)
    for name, args in (("git", [git, "--version"]), ("pre-commit", [sys.executable, "-m", "pre_commit", "--version"])):
        try:
            probe = run(args, tmp_path, env, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as error:
            pytest.skip(f"{name} does not start: {error}")
        if probe.returncode != 0:
            pytest.skip(f"{name} does not start (install the test extra for pre-commit): {probe.stderr.strip()[:300]}")
    return {"git": git}


def make_project(root: Path, git: str, env: dict[str, str], config: dict, pyproject: str = PYPROJECT) -> None:
    """The standard layout in a new git repository, pre-commit's hook installed with `config`, nothing committed."""
    pkg = root / "src" / "pkg"
    pkg.mkdir(parents=True)
    (root / "pyproject.toml").write_text(pyproject)
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(CONFIG)
    (pkg / "model.py").write_text(MODEL)
    (pkg / "train.py").write_text(TRAIN)
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    assert run([git, "init", "-q"], root, env).returncode == 0
    installed = run([sys.executable, "-m", "pre_commit", "install"], root, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr


def commit(root: Path, git: str, env: dict[str, str], *paths: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`git add PATHS` then `git commit` (pre-commit's hook runs); the commit's process."""
    assert run([git, "add", *paths], root, env).returncode == 0
    return run([git, "commit", "-m", f"change {' '.join(paths)}"], root, env, timeout=timeout)


def head(root: Path, git: str, env: dict[str, str]) -> str:
    return run([git, "rev-parse", "HEAD"], root, env).stdout.strip()


def layer_commit_is_stopped_and_unrelated_commit_passes(root: Path, git: str, env: dict[str, str], timeout: float) -> None:
    """The scenario of the module docstring, on a repository made by `make_project`."""
    first = commit(root, git, env, ".", timeout=timeout)
    ran = first.stdout + first.stderr  # (git gives the hook's output on stderr)
    assert first.returncode == 0, ran
    assert "spmdfix fix....." in ran and "spmdfix check....." in ran and "Failed" not in ran, ran
    clean = head(root, git, env)

    (root / "src/pkg/model.py").write_text(MODEL_WITH_DATA)
    stopped = commit(root, git, env, "src/pkg/model.py")
    out = stopped.stdout + stopped.stderr
    assert stopped.returncode != 0, out
    assert head(root, git, env) == clean, "the commit went through"
    # The check hook names the collision at the spec in model.py; the fix hook applied nothing (no safe fix under
    # the project's settings) and said where the finding is left.
    assert f"src/pkg/model.py:{SPEC_LINE}:{IN_SPEC_COL}: SPMD001" in out, out
    assert f"src/pkg/model.py:{SPEC_LINE}:{OUT_SPEC_COL}: SPMD002" in out, out
    assert "fixes applied: none" in out, out
    for name, text in (("config.py", CONFIG), ("train.py", TRAIN), ("model.py", MODEL_WITH_DATA)):
        assert (root / "src/pkg" / name).read_text() == text, f"a hook changed {name}"

    # A commit of an unrelated module passes, the layer's edit left in the working tree (pre-commit stashes it).
    assert run([git, "reset", "-q", "src/pkg/model.py"], root, env).returncode == 0
    (root / "src/pkg/utils.py").write_text(UTILS)
    passed = commit(root, git, env, "src/pkg/utils.py")
    ran = passed.stdout + passed.stderr
    assert passed.returncode == 0, ran
    assert "spmdfix check....." in ran and "Failed" not in ran, ran
    assert head(root, git, env) != clean
    assert (root / "src/pkg/model.py").read_text() == MODEL_WITH_DATA


# A notebook (newuser13): its second cell's shard_map names `data`, the axis its third cell's vmap gives. The
# body subtracts the block's mean (not elementwise: no safe strip), and the project's settings make the fixes that
# move the batch unsafe: no safe fix.
NOTEBOOK_CELLS = [
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n",
    "mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ('data', 'model'))\n"
    "def layer(x):\n"
    "    return jax.shard_map(lambda v: v - v.mean(), mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)\n",
    "ys = jax.vmap(layer, spmd_axis_name='data')(np.ones((4, 8)))\n",
]
NOTEBOOK_SPEC_CELL, NOTEBOOK_SPEC_LINE = 2, 3
NOTEBOOK_SPEC_COL = NOTEBOOK_CELLS[1].splitlines()[NOTEBOOK_SPEC_LINE - 1].index("'data'") + 1


def notebook_json(cells: list[str]) -> str:
    """An nbformat 4 notebook of Python code cells, as Jupyter writes it."""
    import json

    code = [
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": text.splitlines(True)}
        for text in cells
    ]
    meta = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"}}
    return json.dumps({"cells": code, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


def test_readme_local_hooks_stop_a_commit_of_a_notebook_with_a_collision(tools: dict[str, str], tmp_path: Path) -> None:
    """The snippet's `types_or` holds `jupyter`: a staged notebook is passed to both hooks, and its cell's collision
    (no safe fix) stops the commit, said at the cell; the notebook without the collision commits."""
    env = local_hooks_env(tmp_path)
    root = tmp_path / "project"
    make_project(root, tools["git"], env, readme_config())
    first = commit(root, tools["git"], env, ".")
    assert first.returncode == 0, first.stdout + first.stderr
    clean = head(root, tools["git"], env)
    (root / "explore.ipynb").write_text(notebook_json(NOTEBOOK_CELLS))
    stopped = commit(root, tools["git"], env, "explore.ipynb")
    out = stopped.stdout + stopped.stderr
    assert stopped.returncode != 0 and head(root, tools["git"], env) == clean, out
    place = f"explore.ipynb:cell {NOTEBOOK_SPEC_CELL}:{NOTEBOOK_SPEC_LINE}:{NOTEBOOK_SPEC_COL}: SPMD001"
    assert place in out, out  # (the check hook's concise line)
    assert "fixes applied: none; 2 findings left in explore.ipynb" in out, out
    assert (root / "explore.ipynb").read_text() == notebook_json(NOTEBOOK_CELLS), "a hook changed the notebook"
    plain = [*NOTEBOOK_CELLS[:2], NOTEBOOK_CELLS[2].replace(", spmd_axis_name='data'", "")]
    (root / "explore.ipynb").write_text(notebook_json(plain))
    passed = commit(root, tools["git"], env, "explore.ipynb")
    assert passed.returncode == 0 and head(root, tools["git"], env) != clean, passed.stdout + passed.stderr


def local_hooks_env(tmp_path: Path) -> dict[str, str]:
    """`clean_env` where `spmdfix` on PATH (the snippet's `language: system` entry) is this interpreter's console
    script importing this tree."""
    env = clean_env(tmp_path)
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join([bindir, env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    assert shutil.which("spmdfix", path=env["PATH"]), "the spmdfix console script is not installed (pip install -e .)"
    return env


def test_readme_local_hooks_stop_a_commit_of_the_layer_module_alone(tools: dict[str, str], tmp_path: Path) -> None:
    """README's snippet verbatim."""
    env = local_hooks_env(tmp_path)
    config = readme_config()
    assert config["repos"][0]["repo"] == "local"
    root = tmp_path / "project"
    make_project(root, tools["git"], env, config)
    layer_commit_is_stopped_and_unrelated_commit_passes(root, tools["git"], env, timeout=300)


def test_readme_local_hooks_fix_the_other_modules_and_stop_the_commit(tools: dict[str, str], tmp_path: Path) -> None:
    """Without the project's `layout-changing-fixes = "unsafe"`, the collision has a safe fix (add-axis: every
    use of config.py's mesh is on its allowlist): `spmdfix-fix` applies it to config.py and train.py, which the
    commit does not stage, and pre-commit stops the commit because the hook changed files (README says so)."""
    env = local_hooks_env(tmp_path)
    root = tmp_path / "project"
    make_project(root, tools["git"], env, readme_config(), pyproject=PYPROJECT.split("\n#", 1)[0] + "\n")
    first = commit(root, tools["git"], env, ".")
    assert first.returncode == 0, first.stdout + first.stderr
    clean = head(root, tools["git"], env)
    (root / "src/pkg/model.py").write_text(MODEL_WITH_DATA)
    stopped = commit(root, tools["git"], env, "src/pkg/model.py")
    out = stopped.stdout + stopped.stderr
    assert stopped.returncode != 0 and head(root, tools["git"], env) == clean, out
    assert "files were modified by this hook" in out, out
    assert "src/pkg/model.py: applied add-axis (safe), editing src/pkg/config.py, src/pkg/train.py: " in out, out
    assert "src/pkg/config.py: changed by a fix of src/pkg/model.py" in out, out
    assert "src/pkg/train.py: changed by a fix of src/pkg/model.py" in out, out
    assert "fixes applied: add-axis 1" in out, out
    assert (root / "src/pkg/model.py").read_text() == MODEL_WITH_DATA
    assert "spmd_axis_name=DATA" not in (root / "src/pkg/train.py").read_text()
    # Reviewed and staged, the fixed modules commit.
    again = commit(root, tools["git"], env, "src/pkg")
    assert again.returncode == 0, again.stdout + again.stderr


def snapshot_of_this_tree(dest: Path, git: str, env: dict[str, str]) -> str:
    """A git repository at `dest` whose one commit is this tree as it is on disk (tracked and untracked files,
    this tree's `.gitignore` respected); its commit id. The checkout itself is only read."""
    assert run([git, "init", "-q", str(dest)], dest.parent, env).returncode == 0
    gitdir = ["--git-dir", str(dest / ".git"), "--work-tree", str(ROOT)]
    added = run([git, *gitdir, "add", "-A", "."], ROOT, env)
    assert added.returncode == 0, added.stderr
    made = run([git, *gitdir, "commit", "-q", "-m", "spmdfix as on disk"], ROOT, env)
    assert made.returncode == 0, made.stderr
    listed = run([git, "ls-tree", "--name-only", "HEAD"], dest, env).stdout.split()
    assert ".pre-commit-hooks.yaml" in listed and "pyproject.toml" in listed, listed
    return head(dest, git, env)


def test_readme_tagged_release_form_installs_the_shipped_hooks_and_stops_the_commit(
    tools: dict[str, str], tmp_path: Path
) -> None:
    """README's release form: `repo:` this tree (as a git repository), `rev:` its commit, the snippet's hook ids.
    pre-commit installs spmdfix from that repository with pip; PYTHONPATH is unset so the hooks run that install."""
    env = clean_env(tmp_path)
    env.pop("PYTHONPATH", None)
    snapshot = tmp_path / "spmdfix-src"
    snapshot.mkdir()
    rev = snapshot_of_this_tree(snapshot, tools["git"], env)
    local = readme_config()["repos"][0]
    config = {"repos": [{"repo": str(snapshot), "rev": rev, "hooks": [{"id": h["id"]} for h in local["hooks"]]}]}
    root = tmp_path / "project"
    make_project(root, tools["git"], env, config)
    # The first commit installs the hook environment (pip, from the package index).
    layer_commit_is_stopped_and_unrelated_commit_passes(root, tools["git"], env, timeout=HOOK_INSTALL_TIMEOUT_S)
    # The hooks ran the spmdfix installed from the snapshot, not this interpreter's.
    store = list((tmp_path / "pre-commit-home").glob("repo*/py_env-*/bin/spmdfix"))
    assert store, sorted(p.name for p in (tmp_path / "pre-commit-home").iterdir())
