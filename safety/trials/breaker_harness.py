"""The breakers' harness (breaker14, breaker15, breaker16): run each program of a trial every way the brief
asks: JAX truth; `spmdfix check` on the tree and on every module alone; `spmdfix fix` (safe fixes only) with
the default strategy and with each strategy that the check offers, each on its own copy, and JAX on every copy
a fix changed.

Uses the trials' shared helpers (`safety/trials/harness.py`: run_jax, spmdfix, the environment). Each program is
a directory <trial>/progs/<name>/ holding an entry script (ENTRY, default main.py) printing `RESULT:
match|mismatch`; a pyproject.toml unless the program is about a tree without a marker; an optional CHECK file
naming the targets of the tree check and of the fixes (default `.`). Each trial's own `harness.py` calls `main`
with its directory: `python <trial>/harness.py [name ...]`; HARNESS_OUT names the output directory (default
out), SPMDFIX_SRC the checkout whose spmdfix runs (default this worktree); HARNESS_CHECKS_ONLY=1 runs only the
checks (tree and modules alone), no JAX and no fix (the before column).

Each program's summary line flags: BUG1 (a safe fix changed files and the fixed program fails or mismatches),
SILENT (JAX fails but a check printed `All checks passed!`: judge whether the module is involved), FP (the
program matches but the tree check reports a finding).
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from harness import run_jax, spmdfix  # (the trials' shared harness, beside this module)

STRATEGIES = ("rename", "add-axis", "drop-spmd-axis", "strip", "disable-check-vma", "lift-captures", "move-placement")


def modules(d):
    """Every .py file of the program, relative to it, but for the entry script."""
    return sorted(str(p.relative_to(d)) for p in d.rglob("*.py") if "__pycache__" not in p.parts)


def one(d, outdir, scratch):
    entry = (d / "ENTRY").read_text().strip() if (d / "ENTRY").exists() else "main.py"
    targets = (d / "CHECK").read_text().split() if (d / "CHECK").exists() else ["."]
    checks_only = os.environ.get("HARNESS_CHECKS_ONLY") == "1"
    truth = "(not run)" if checks_only else run_jax(d, entry)
    rep = [f"== {d.name}", f"JAX: {truth}"]
    flags = []
    rc, chk = spmdfix(["check", "--no-cache", "--show-unresolved", "--show-fixes", *targets], d)
    rep += [f"--- check {' '.join(targets)} (rc={rc})", chk]
    codes = sorted(set(re.findall(r"SPMD\d+", chk)))
    if truth.startswith("FAIL") and "All checks passed" in chk:
        flags.append("SILENT(tree)")
    if truth.startswith("RESULT: match") and re.search(r"SPMD00\d", chk):
        flags.append("FP")
    if "Traceback" in chk or rc not in (0, 1):
        flags.append(f"CRASH(check rc={rc})")
    alone = {}
    for m in modules(d):
        rc2, c2 = spmdfix(["check", "--no-cache", "--show-unresolved", m], d)
        alone[m] = sorted(set(re.findall(r"SPMD\d+", c2)))
        rep += [f"--- check {m} alone (rc={rc2})", c2]
        if truth.startswith("FAIL") and "All checks passed" in c2:
            flags.append(f"SILENT({m})")
        if truth.startswith("RESULT: match") and re.search(r"SPMD00\d", c2):
            flags.append(f"FP({m})")
        if "Traceback" in c2 or rc2 not in (0, 1):
            flags.append(f"CRASH({m} rc={rc2})")
    if checks_only:
        (outdir / f"{d.name}.txt").write_text("\n".join(rep) + "\n")
        alone_s = " ".join(f"{pathlib.Path(m).name}:{'/'.join(c) or '-'}" for m, c in alone.items())
        print(f"== {d.name}\n  check: {'/'.join(codes) or 'clean'}\n  alone: {alone_s}", flush=True)
        return
    offered = [s for s in STRATEGIES if re.search(rf"fix \[(safe|unsafe)\] {s}\b", chk)]
    fixes = {}
    for strat in [None, *offered]:
        tag = strat or "default"
        tmp = pathlib.Path(f"{scratch}_{tag}") / d.name
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(d, tmp, ignore=shutil.ignore_patterns("__pycache__"))
        args = ["fix", *(["--strategy", strat] if strat else []), *targets]
        frc, fout = spmdfix(args, tmp)
        diff = subprocess.run(["diff", "-r", "-x", "__pycache__", str(d), str(tmp)], capture_output=True,
                              text=True).stdout
        fixed = run_jax(tmp, entry) if diff.strip() else "(no change)"
        fixes[tag] = fixed
        rep += [f"--- fix {tag} (rc={frc})", fout, diff, f"FIXED JAX ({tag}): {fixed}"]
        if diff.strip() and not fixed.startswith("RESULT: match"):
            flags.append(f"BUG1({tag})")
        if "Traceback" in fout:
            flags.append(f"CRASH(fix {tag})")
    (outdir / f"{d.name}.txt").write_text("\n".join(rep) + "\n")
    alone_s = " ".join(f"{pathlib.Path(m).name}:{'/'.join(c) or '-'}" for m, c in alone.items())
    fix_s = "; ".join(f"{k}: {v}" for k, v in fixes.items())
    print(f"== {d.name}\n  JAX: {truth}\n  check: {'/'.join(codes) or 'clean'}\n  alone: {alone_s}\n"
          f"  fixes: {fix_s}\n  FLAGS: {' '.join(flags) or '-'}", flush=True)


def main(trial, names):
    """Run the programs of `trial`/progs/ (all, or those named)."""
    trial = pathlib.Path(trial)
    outdir = trial / os.environ.get("HARNESS_OUT", "out")
    outdir.mkdir(exist_ok=True)
    scratch = f"/tmp/{trial.name}_{outdir.name}"
    for d in sorted(trial.joinpath("progs").iterdir()):
        if names and d.name not in names:
            continue
        one(d, outdir, scratch)

