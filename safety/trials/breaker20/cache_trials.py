"""breaker20: the results cache across files. After each edit of the project (config.py's constants, a module
deleted, renamed, replaced by a package, shadowed, a symlink swapped, ...), a cached `check` (of the tree, of
model.py alone, of train.py alone; each with its own warm cache) must print what `check --no-cache` prints.

Usage: SPMDFIX_SRC=<checkout> python cache_trials.py [step ...]; prints one line per (step, target): OK or DIFF
with both outputs."""
import os
import pathlib
import shutil
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from fmt_trials import build, sf  # noqa: E402

TARGETS = {"tree": ["."], "model": ["pkg/model.py"], "train": ["pkg/train.py"], "config": ["pkg/config.py"]}


def rewrite(path, old, new):
    s = path.read_text()
    assert old in s, (path, old)
    path.write_text(s.replace(old, new))


def steps(d):
    """(name, action) in order; each action edits the project d."""
    p = d / "pkg"
    return [
        ("warm", lambda: None),
        ("config-swap-constants", lambda: rewrite(p / "config.py", 'DATA, MODEL = "data", "model"', 'DATA, MODEL = "model", "data"')),
        ("config-restore", lambda: rewrite(p / "config.py", 'DATA, MODEL = "model", "data"', 'DATA, MODEL = "data", "model"')),
        ("config-add-free-axis", lambda: rewrite(p / "config.py", "reshape(2, 4), (DATA, MODEL)", 'reshape(2, 2, 2), (DATA, MODEL, "free")')),
        ("config-remove-free-axis", lambda: rewrite(p / "config.py", 'reshape(2, 2, 2), (DATA, MODEL, "free")', "reshape(2, 4), (DATA, MODEL)")),
        ("config-delete", lambda: (p / "config.py").rename(d / "config.saved")),
        ("config-back", lambda: (d / "config.saved").rename(p / "config.py")),
        ("config-rename", lambda: (p / "config.py").rename(p / "settings.py")),
        ("imports-follow-rename", lambda: [rewrite(p / f, "from .config import", "from .settings import") for f in ("model.py", "train.py")]),
        ("rename-back", lambda: ((p / "settings.py").rename(p / "config.py"),
                                 [rewrite(p / f, "from .settings import", "from .config import") for f in ("model.py", "train.py")])),
        ("config-package-shadows", lambda: ((p / "config").mkdir(), (p / "config" / "__init__.py").write_text(
            'import jax\nimport numpy as np\nfrom jax.sharding import Mesh\n\nDATA, MODEL = "d2", "m2"\n'
            'MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))\n'))),
        ("config-package-removed", lambda: shutil.rmtree(p / "config")),
        ("train-delete", lambda: (p / "train.py").rename(d / "train.saved")),
        ("train-back", lambda: (d / "train.saved").rename(p / "train.py")),
        ("train-spmd-model", lambda: rewrite(p / "train.py", "spmd_axis_name=DATA", "spmd_axis_name=MODEL")),
        ("train-import-model", lambda: rewrite(p / "train.py", "from .config import DATA", "from .config import DATA, MODEL")),
        ("train-restore", lambda: (rewrite(p / "train.py", "spmd_axis_name=MODEL", "spmd_axis_name=DATA"),
                                   rewrite(p / "train.py", "from .config import DATA, MODEL", "from .config import DATA"))),
        ("config-same-size-edit-same-mtime", lambda: same_mtime_edit(p / "config.py", 'DATA, MODEL = "data", "model"', 'DATA, MODEL = "mode", "datl"')),
        ("config-symlink-to-other", lambda: symlink_swap(d, p)),
        ("config-symlink-target-edited", lambda: rewrite(d / "alt" / "config.py", 'DATA, MODEL = "model", "data"', 'DATA, MODEL = "data", "model"')),
        ("model-moved-into-subpackage", lambda: move_model(p)),
        ("pyproject-per-file-ignores", lambda: (d / "pyproject.toml").write_text(
            '[project]\nname = "p"\n[tool.spmdfix]\nper-file-ignores = { "pkg/train.py" = ["SPMD001"] }\n')),
        ("pyproject-restore", lambda: (d / "pyproject.toml").write_text('[project]\nname = "p"\n')),
        ("init-reexport", lambda: (p / "__init__.py").write_text("from .config import DATA as DATA\n")),
    ]


def same_mtime_edit(path, old, new):
    st = path.stat()
    rewrite(path, old, new)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def symlink_swap(d, p):
    (d / "alt").mkdir()
    (d / "alt" / "config.py").write_text(
        'import jax\nimport numpy as np\nfrom jax.sharding import Mesh\n\nDATA, MODEL = "model", "data"\n'
        'MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))\n')
    (p / "config.py").unlink()
    (p / "config.py").symlink_to("../alt/config.py")


def move_model(p):
    (p / "sub").mkdir()
    (p / "sub" / "__init__.py").write_text("")
    s = (p / "model.py").read_text().replace("from .config import", "from ..config import")
    (p / "sub" / "model.py").write_text(s)
    (p / "model.py").unlink()
    rewrite(p / "train.py", "from .model import forward", "from .sub.model import forward")


def norm(text):
    return "\n".join(l for l in text.splitlines() if not l.startswith("spmdfix:"))


def main(only):
    work = pathlib.Path(os.environ.get("TRIAL_WORK", "/tmp/b20-cache"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    d = work / "proj"
    d.mkdir()
    build(d, {})
    (d / "pkg/model.py").write_text((d / "pkg/model.py").read_text())
    subprocess.run(["git", "init", "-q", "."], cwd=d)
    bad = total = 0
    for name, action in steps(d):
        action()
        time.sleep(float(os.environ.get("STEP_SLEEP", "0")))
        for tname, targets in TARGETS.items():
            if tname == "model" and not (d / "pkg/model.py").exists():
                targets = ["pkg/sub/model.py"]
            cache = work / f"cache-{tname}"
            rc1, out1, err1 = sf(["check", "--cache-dir", str(cache), "--show-unresolved", "--output-format", "concise", *targets], d)
            rc2, out2, err2 = sf(["check", "--no-cache", "--show-unresolved", "--output-format", "concise", *targets], d)
            total += 1
            a, b = norm(out1.decode() + err1), norm(out2.decode() + err2)
            if (rc1, a) != (rc2, b) or "Traceback" in err1:
                bad += 1
                print(f"{name:36s} {tname:7s} DIFF\n  cached (rc={rc1}):\n    " + a.replace("\n", "\n    ")
                      + f"\n  no-cache (rc={rc2}):\n    " + b.replace("\n", "\n    "), flush=True)
            else:
                print(f"{name:36s} {tname:7s} OK  ({len(a.splitlines())} lines, rc={rc1})", flush=True)
    print(f"\n{total} cached checks, {bad} differ from --no-cache")


if __name__ == "__main__":
    main(sys.argv[1:])
