"""Probe harness: for each program P/*.py (defining main() -> (result, reference)), run it under JAX, run
`spmdfix check` and `spmdfix fix` (default), run the fixed program; report silence and wrong SAFE fixes."""
import json, os, subprocess, sys, shutil, glob
SRC = os.environ.get("SPMDFIX_SRC", "/work/wt/newuser15")
PY = sys.executable
ENV = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", PYTHONPATH=SRC)
RUN = ("import runpy,sys,numpy as np\ng=runpy.run_path(sys.argv[1])\n"
       "try:\n r,ref=g['main']()\n import jax\n ok=all(np.allclose(np.asarray(a),np.asarray(b)) for a,b in zip(jax.tree.leaves(r),jax.tree.leaves(ref)))\n print('OK' if ok else 'WRONG')\n"
       "except Exception as e:\n print('RAISED', type(e).__name__, str(e).splitlines()[0][:100])\n")
def run(path):
    out = subprocess.run([PY, "-c", RUN, path], env=ENV, capture_output=True, text=True, cwd=os.path.dirname(os.path.abspath(path)))
    return (out.stdout.strip().splitlines() or ["?" + out.stderr[-200:]])[-1]
import tempfile
for original in sorted(os.path.abspath(p) for p in sys.argv[1:]):
    path = os.path.join(tempfile.mkdtemp(prefix="probe-"), os.path.basename(original))
    shutil.copy(original, path)
    before = run(path)
    chk = subprocess.run([PY, "-m", "spmdfix.cli", "check", "--no-cache", "--output-format", "json", path], env=ENV, capture_output=True, text=True)
    try: recs = json.loads(chk.stdout)
    except Exception: recs = []
    codes = sorted({r.get("code") for r in recs})
    fixed = path.replace(".py", ".fixed.py"); shutil.copy(path, fixed)
    subprocess.run([PY, "-m", "spmdfix.cli", "fix", "--no-cache", fixed], env=ENV, capture_output=True, text=True)
    changed = open(fixed).read() != open(path).read()
    after = run(fixed) if changed else "-"
    verdict = ""
    if before.startswith("RAISED") and not codes: verdict = "SILENCE"
    if changed and not after.startswith("OK"): verdict = "WRONG-SAFE"
    if before == "OK" and any(c and not c.startswith("SPMD9") for c in codes): verdict = verdict or "false-positive"
    print(f"{os.path.basename(path):40} before={before[:40]:40} codes={codes} fixed={changed} after={after[:40]} {verdict}")
    os.remove(fixed)
