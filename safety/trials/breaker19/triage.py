"""Triage (python triage.py [name ...]; SPMDFIX_SRC the checkout): `spmdfix check --show-fixes --show-unresolved`
on each program's tree; one line a program: the codes, and each offered fix with its class."""
import os, pathlib, re, subprocess, sys
HERE = pathlib.Path(__file__).resolve().parent
SRC = os.environ.get("SPMDFIX_SRC", str(HERE.parents[2]))
ENV = dict(os.environ, PYTHONPATH=SRC)
for d in sorted((HERE / "progs").iterdir()):
    if sys.argv[1:] and d.name not in sys.argv[1:]:
        continue
    p = subprocess.run([sys.executable, "-m", "spmdfix.cli", "check", "--no-cache", "--show-fixes", "--show-unresolved", "."],
                       cwd=d, env=ENV, capture_output=True, text=True)
    out = p.stdout + p.stderr
    codes = sorted(set(re.findall(r"SPMD\d+", out)))
    fixes = sorted(set(re.findall(r"fix \[(safe|unsafe)\] ([\w-]+)", out)))
    safe = [f for c, f in fixes if c == "safe"]
    print(f"{d.name}: {'/'.join(codes) or 'clean'} safe={','.join(safe) or '-'} unsafe={','.join(f for c, f in fixes if c == 'unsafe') or '-'}", flush=True)
