"""Sanity of the programs (python sanity.py [name ...]): each main.py must fail under JAX (the spmd axis in the
specs), and the same program with `spmd_axis_name=...` removed must print `RESULT: match` (the reference holds)."""
import os, pathlib, re, shutil, subprocess, sys
HERE = pathlib.Path(__file__).resolve().parent
ENV = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu")


def run(d):
    p = subprocess.run([sys.executable, "main.py"], cwd=d, env=dict(ENV, PYTHONPATH=str(d)), capture_output=True, text=True)
    res = [l for l in p.stdout.splitlines() if l.startswith("RESULT")]
    if res:
        return res[0]
    errs = [l for l in p.stderr.splitlines() if ("Error" in l) and not l.startswith(" ")]
    return "FAIL: " + (errs[-1] if errs else p.stderr[-200:])[:150]


for d in sorted((HERE / "progs").iterdir()):
    if sys.argv[1:] and d.name not in sys.argv[1:]:
        continue
    tmp = pathlib.Path("/tmp/b19_sanity") / d.name
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(d, tmp)
    t = tmp / "pkg/train.py"
    t.write_text(re.sub(r",\s*spmd_axis_name=DATA", "", t.read_text()))
    print(d.name, "|", run(d), "|", run(tmp), flush=True)
