"""(newuser14's harness, for a src/ layout: the scripts run with PYTHONPATH=<project>/src.) Harness for projects/*/: for each project (a pyproject.toml, a package and run*.py scripts defining main() ->
(result, reference)), run each script under JAX (8 CPU devices), `spmdfix check --show-unresolved` the whole
project (codes per script's vmap), `spmdfix fix` a copy of the project and run the scripts again. Prints one line a
script: before, the codes whose chain starts at that script's vmap, after, and a verdict (SILENCE: JAX raises and
no finding or record names that vmap; WRONG-SAFE: a safe fix changed the project and the script then fails).

    SPMDFIX_SRC=/work/wt/NAME python project_harness.py projects/*
"""
import json, os, shutil, subprocess, sys, tempfile

SRC = os.environ.get("SPMDFIX_SRC", "/work/wt/newuser15")
PY = sys.executable
ENV = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8")
RUN = ("import runpy,sys,numpy as np\ng=runpy.run_path(sys.argv[1])\n"
       "try:\n r,ref=g['main']()\n import jax\n ok=all(np.allclose(np.asarray(a),np.asarray(b)) for a,b in zip(jax.tree.leaves(r),jax.tree.leaves(ref)))\n print('OK' if ok else 'WRONG')\n"
       "except Exception as e:\n print('RAISED', type(e).__name__, str(e).splitlines()[0][:80])\n")


def run(project, script):
    env = dict(ENV, PYTHONPATH=os.path.join(project, "src") + os.pathsep + project)
    out = subprocess.run([PY, "-c", RUN, script], env=env, capture_output=True, text=True, cwd=project)
    return (out.stdout.strip().splitlines() or ["?" + out.stderr[-200:]])[-1]


def codes_by_script(project):
    env = dict(ENV, PYTHONPATH=SRC)
    out = subprocess.run([PY, "-m", "spmdfix.cli", "check", "--no-cache", "--show-unresolved", "--output-format", "json", "."],
                         env=env, capture_output=True, text=True, cwd=project)
    by = {}
    for rec in json.loads(out.stdout or "[]"):
        first = (rec.get("chain") or rec.get("related") or [{}])[0].get("filename") or rec.get("filename")
        by.setdefault(os.path.basename(first or ""), set()).add(rec["code"])
    return by


for original in sys.argv[1:]:
    project = tempfile.mkdtemp(prefix="nu15-") + "/p"
    shutil.copytree(original, project, ignore=shutil.ignore_patterns("__pycache__"))
    if os.environ.get("KEEP"): print("copy:", project)
    scripts = sorted(f for f in os.listdir(project) if f.startswith("run_") and f.endswith(".py"))
    before = {s: run(project, s) for s in scripts}
    codes = codes_by_script(project)
    fixed = project + "-fixed"
    shutil.copytree(project, fixed)
    subprocess.run([PY, "-m", "spmdfix.cli", "fix", "--no-cache", "."], env=dict(ENV, PYTHONPATH=SRC), capture_output=True, cwd=fixed)
    changed = any(open(os.path.join(d, f), "rb").read() != open(os.path.join(d.replace(fixed, project, 1), f), "rb").read()
                  for d, _, fs in os.walk(fixed) if "__pycache__" not in d for f in fs if f.endswith(".py"))
    for s in scripts:
        after = run(fixed, s) if changed else "-"
        mine = sorted(codes.get(s, ()))
        verdict = ""
        if before[s].startswith("RAISED") and not mine:
            verdict = "SILENCE?"
        if changed and before[s] == "OK" and not after.startswith("OK"):
            verdict = "WRONG-SAFE"
        if before[s] == "OK" and any(not c.startswith("SPMD9") for c in mine):
            verdict = verdict or "false-positive"
        print(f"{os.path.basename(original)}/{s:10} before={before[s][:40]:40} codes={mine} after={after[:30]} {verdict}")
