"""Chain trials: a partial run of a module the chain passes through reports the collision once, and `fix` of
it (alone or with other modules of the chain) writes a program JAX runs and whose result matches the reference.

Usage: python t_chain.py [trial-name-substring...]. Prints per trial: each check's (exit code, finding count),
each fix's summary and JAX outcome."""
import json
import re
import sys

import lib

B = lib.BASE
L, S, R = B["pkg/layers.py"], B["pkg/specs.py"], B["run.py"]

MID = {
    "pkg/layers.py": L,
    "pkg/blocks.py": "from pkg.layers import residual\n\n\ndef block(x):\n    return residual(x) * 2.0\n",
    "pkg/model.py": "from pkg.blocks import block\n\n\ndef model(x):\n    return block(x) + 1.0\n",
    "run.py": R.replace("from pkg.layers import residual", "from pkg.model import model as residual"),
}
REEXPORT = {
    "pkg/__init__.py": "from pkg.specs import activation_spec\n",
    "pkg/layers.py": L.replace("from pkg.specs import activation_spec", "from pkg import activation_spec"),
}
TWO_VMAPS = {
    "run2.py": R.replace("spmd_axis_name=DATA", "spmd_axis_name=MODEL").replace("import DATA", "import MODEL").replace(
        "reshape(4, 8, 16)", "reshape(4, 8, 16)"),
}
CYCLE = {
    "pkg/specs.py": S + "\n\ndef width():\n    from pkg import layers\n    return layers.__name__\n",
}
CYCLE_TOP = {
    "pkg/specs.py": S.replace("from pkg.config import DATA, MODEL", "from pkg.config import DATA, MODEL\nimport pkg.layers"),
}
TWO_LAYERS = {
    "pkg/layers2.py": L.replace("gelu_block", "tanh_block").replace("jax.nn.gelu", "jnp.tanh").replace("residual", "residual2"),
    "run.py": R.replace("from pkg.layers import residual", "from pkg.layers import residual as r1\nfrom pkg.layers2 import residual2\n\n\ndef residual(x):\n    return r1(x) + residual2(x)"),
}
SPEC_IN_RUN = {  # the spec helper lives in the vmap's module; layers imports it back (a cycle through run.py)
    "pkg/layers.py": L.replace("from pkg.specs import activation_spec", "from pkg.specs import activation_spec as _a"),
}
NB = {
    "run.py": None,
    "run.ipynb": json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                                        "source": [line + "\n" for line in R.splitlines()]}],
                             "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
}
SPEC_CONST = {  # a module-level spec constant instead of a helper call
    "pkg/specs.py": S + "\nACT = P(DATA, MODEL)\n",
    "pkg/layers.py": L.replace("from pkg.specs import activation_spec", "from pkg.specs import ACT").replace(
        "spec = activation_spec()", "spec = ACT"),
}
SPEC_PARAM = {  # specs helper takes the axis as a parameter given in layers.py
    "pkg/specs.py": S.replace("def activation_spec():\n    return P(DATA, MODEL)", "def activation_spec(a=DATA, b=MODEL):\n    return P(a, b)"),
    "pkg/layers.py": L.replace("spec = activation_spec()", "spec = activation_spec(DATA)").replace(
        "from pkg.config import MESH", "from pkg.config import DATA, MESH"),
}

TRIALS = {
    "v01_base": ({}, [["pkg/layers.py"], ["pkg/specs.py"], ["run.py"], ["pkg/config.py"]], [["pkg/layers.py"], ["pkg/layers.py", "run.py"], ["pkg/specs.py"], ["pkg/layers.py", "pkg/specs.py"]]),
    "v02_mid": (MID, [["pkg/layers.py"], ["pkg/blocks.py"], ["pkg/model.py"], ["pkg/layers.py", "pkg/blocks.py", "pkg/model.py"]],
                [["pkg/layers.py"], ["pkg/blocks.py"], ["pkg/model.py"], ["pkg/layers.py", "pkg/blocks.py"], ["pkg/blocks.py", "run.py"]]),
    "v03_reexport": (REEXPORT, [["pkg/layers.py"], ["pkg/__init__.py"], ["pkg/layers.py", "pkg/__init__.py"]], [["pkg/layers.py"], ["pkg/__init__.py"]]),
    "v04_two_vmaps": (TWO_VMAPS, [["pkg/layers.py"], ["run.py", "run2.py"], ["pkg/layers.py", "run2.py"]], [["pkg/layers.py"], ["pkg/layers.py", "run2.py"]]),
    "v05_cycle": (CYCLE, [["pkg/layers.py"], ["pkg/specs.py"]], [["pkg/layers.py"], ["pkg/specs.py", "pkg/layers.py"]]),
    "v06_cycle_top": (CYCLE_TOP, [["pkg/layers.py"], ["pkg/specs.py"]], [["pkg/layers.py"]]),
    "v07_two_layers": (TWO_LAYERS, [["pkg/layers.py"], ["pkg/layers2.py"], ["pkg/layers.py", "pkg/layers2.py"]],
                       [["pkg/layers.py"], ["pkg/layers2.py"], ["pkg/layers.py", "pkg/layers2.py"]]),
    "v08_notebook": (NB, [["pkg/layers.py"], ["pkg/layers.py", "run.ipynb"]], [["pkg/layers.py"]]),
    "v09_spec_const": (SPEC_CONST, [["pkg/layers.py"], ["pkg/specs.py"]], [["pkg/layers.py"]]),
    "v10_spec_param": (SPEC_PARAM, [["pkg/layers.py"], ["pkg/specs.py"]], [["pkg/layers.py"]]),
}


def count(out: str) -> int:
    return len([l for l in out.splitlines() if re.match(r"^\S+:\d+:\d+: SPMD", l)])


def main(wanted):
    for name, (files, checks, fixes) in TRIALS.items():
        if wanted and not any(x in name for x in wanted):
            continue
        root = lib.make(name, files)
        full = lib.concise(root, "--no-cache", ".")
        print(f"== {name}: full run rc={full[0]} n={count(full[1])} :: {full[1].splitlines()[-1]}")
        for c in checks:
            rc, out = lib.concise(root, "--no-cache", *c)
            locs = sorted({l.split(': ')[0] + ' ' + l.split(': ')[1].split()[0] for l in out.splitlines() if re.match(r"^\S+:\d+:\d+: SPMD", l)})
            print(f"  check {' '.join(c)}: rc={rc} n={count(out)} {locs} :: {out.splitlines()[-1]}")
        for f in fixes:
            root = lib.make(name, files)
            p = lib.spmdfix(root, "fix", "--no-cache", *f)
            summary = [l for l in p.stderr.splitlines() if l.startswith("spmdfix:")]
            after = lib.concise(root, "--no-cache", ".")
            jax = lib.run_jax(root) if (root / "run.py").exists() else "-"
            jax2 = lib.run_jax(root, "run2") if (root / "run2.py").exists() else ""
            print(f"  fix {' '.join(f)}: rc={p.returncode} {summary[-1:]} | after full rc={after[0]} n={count(after[1])} | jax {jax} {jax2}")


if __name__ == "__main__":
    main(sys.argv[1:])
