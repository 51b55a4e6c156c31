"""The harness of the new-user trials (breaker5, breaker6): run each program of a trial directory: JAX truth,
spmdfix check, spmdfix fix (safe, then --unsafe-fixes) on copies, JAX on each.

Each program is a directory <trial>/progs/<name>/ holding a pyproject.toml (its project root) and an entry script
named in ENTRY (default main.py) that prints `RESULT: match` or `RESULT: mismatch` (compared against a
reference computed without sharding) or raises; an optional STRATEGY file names the `--strategy` passed to
`spmdfix fix`. Each trial's own `harness.py` calls `main` with its directory: `python <trial>/harness.py
[name ...]`; SPMDFIX_SRC=<a checkout> runs that checkout's spmdfix (the before column: an export of main), the
default is this worktree's; HARNESS_OUT names the output directory under the trial (default `out`); HARNESS_TIMEOUT the seconds one run may
take (default 300; a run past it is reported as a timeout).
"""
import os, shutil, subprocess, sys, pathlib

WT = pathlib.Path(os.environ.get("SPMDFIX_SRC", pathlib.Path(__file__).resolve().parents[2]))  # spmdfix is imported from it (default: the worktree)
ENV = dict(os.environ, PYTHONPATH=str(WT), XLA_FLAGS="--xla_force_host_platform_device_count=8",
           JAX_PLATFORMS="cpu")


TIMEOUT = int(os.environ.get("HARNESS_TIMEOUT", "300"))  # seconds a run may take (breaker7 s08 hung: reported, not fatal)


def run_jax(d, entry):
    env = dict(ENV, PYTHONPATH=f"{d}:{WT}")
    try:
        p = subprocess.run([sys.executable, entry], cwd=d, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"FAIL: timed out after {TIMEOUT} s"
    for line in p.stdout.splitlines():
        if line.startswith("RESULT:"):
            return line
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    errs = [l for l in lines if ("Error" in l or "Exception" in l) and not l.startswith(" ")]
    return "FAIL: " + (errs[-1] if errs else (lines[-1] if lines else f"rc={p.returncode}"))[:300]


def spmdfix(args, cwd):
    try:
        p = subprocess.run([sys.executable, "-m", "spmdfix.cli", *args], cwd=cwd, env=ENV, capture_output=True,
                           text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"SPMD TIMEOUT: spmdfix {' '.join(args)} did not return within {TIMEOUT} s\n"
    return p.returncode, p.stdout + p.stderr


def main(trial, names):
    """Run the programs of the trial directory `trial` (all, or those in `names`); a summary per program on
    stdout, the full outputs in `trial`/out/<name>.txt."""
    progs = sorted(trial.joinpath("progs").iterdir())
    outdir = trial / os.environ.get("HARNESS_OUT", "out")  # (out-before/ for the before column; neither is kept)
    outdir.mkdir(exist_ok=True)
    for d in progs:
        if names and d.name not in names:
            continue
        entry = (d / "ENTRY").read_text().strip() if (d / "ENTRY").exists() else "main.py"
        targets = (d / "CHECK").read_text().split() if (d / "CHECK").exists() else ["."]
        truth = run_jax(d, entry)
        rc, chk = spmdfix(["check", "--no-cache", "--show-unresolved", "--show-fixes", *targets], d)
        extra = ""
        if (d / "CHECK_ALONE").exists():
            for f in (d / "CHECK_ALONE").read_text().split():
                rc2, c2 = spmdfix(["check", "--no-cache", "--show-unresolved", "--show-fixes", f], d)
                extra += f"\n--- check {f} alone (rc={rc2})\n{c2}"
        strategy = ["--strategy", (d / "STRATEGY").read_text().strip()] if (d / "STRATEGY").exists() else []
        scratch = f"/tmp/{trial.name}_{outdir.name}"  # (copies per output directory: two runs may go side by side)
        tmp = pathlib.Path(f"{scratch}_fix") / d.name
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(d, tmp)
        frc, fout = spmdfix(["fix", *strategy, "--diff", *targets], tmp)
        frc2, fout2 = spmdfix(["fix", *strategy, *targets], tmp)
        changed = subprocess.run(["diff", "-r", str(d), str(tmp)], capture_output=True, text=True).stdout
        fixed = run_jax(tmp, entry) if changed.strip() else "(no change)"
        utmp = pathlib.Path(f"{scratch}_unsafe") / d.name
        shutil.rmtree(utmp, ignore_errors=True)
        shutil.copytree(d, utmp)
        urc, uout = spmdfix(["fix", *strategy, "--unsafe-fixes", "--diff", *targets], utmp)
        urc2, uout2 = spmdfix(["fix", *strategy, "--unsafe-fixes", *targets], utmp)
        uchanged = subprocess.run(["diff", "-r", str(d), str(utmp)], capture_output=True, text=True).stdout
        ufixed = run_jax(utmp, entry) if uchanged.strip() else "(no change)"
        if uchanged == changed:
            ufixed = "(same as safe)"
        rep = (f"== {d.name}\nJAX: {truth}\n--- check (rc={rc})\n{chk}{extra}\n--- fix --diff (rc={frc})\n{fout}\n"
               f"--- fix (rc={frc2})\n{fout2}\nFIXED JAX: {fixed}\n"
               f"--- fix --unsafe-fixes --diff (rc={urc})\n{uout}\n--- fix --unsafe-fixes (rc={urc2})\n{uout2}\n"
               f"UNSAFE-FIXED JAX: {ufixed}\n")
        (outdir / f"{d.name}.txt").write_text(rep)
        first = [l for l in chk.splitlines() if "SPMD" in l][:6]
        print(f"== {d.name}\n  JAX: {truth}\n  check rc={rc}: " + "\n    ".join(first) + f"\n  FIXED JAX: {fixed}\n  UNSAFE JAX: {ufixed}", flush=True)
