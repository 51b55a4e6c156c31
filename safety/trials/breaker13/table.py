"""Builds the README table: before-main.txt (harness summaries on main c2f8a647, every program), after.txt
(harness summaries on this branch, the programs that were flagged), verdicts.txt (judgement on main)."""
import pathlib
import re

HERE = pathlib.Path(__file__).resolve().parent


def blocks(path):
    out = {}
    for block in path.read_text().split("== ")[1:]:
        lines = block.splitlines()
        get = lambda tag: next((l.split(":", 1)[1].strip() for l in lines if l.strip().startswith(tag)), "")
        out[lines[0].strip()] = {k: get(k) for k in ("JAX", "check", "fixes", "FLAGS")}
    return out


def short(result):
    r = result.replace("RESULT: ", "").replace("FAIL: ", "raises ")
    r = r.replace("ValueError: vmap spmd_axis_name cannot appear in shard_map in_specs", "SPMD001's error")
    return r[:70]


def fixes(f):
    """default's result, and the strategies whose safe fix was applied and did not match."""
    parts = dict(p.split(": ", 1) for p in f.split("; ") if ": " in p)
    default = parts.get("default", "(no change)")
    bad = [k for k, v in parts.items() if k != "default" and v != "(no change)" and not v.startswith("RESULT: match")]
    return default, bad


VERDICT = dict(l.split(": ", 1) for l in (HERE / "verdicts.txt").read_text().splitlines() if l.strip())
before = blocks(HERE / "before-main.txt")
after = blocks(HERE / "after.txt") if (HERE / "after.txt").exists() else {}
print("| program | JAX on original | spmdfix check (main) | safe fix applied (main, default) | fixed program (main) | verdict (main) | this branch |")
print("|---|---|---|---|---|---|---|")
for name, b in sorted(before.items()):
    default, bad = fixes(b["fixes"])
    applied = "no" if default == "(no change)" else "yes"
    fixed = "-" if applied == "no" else short(default)
    if bad:
        fixed += "; " + ", ".join(f"`--strategy {k}`: {short(dict(p.split(': ', 1) for p in b['fixes'].split('; '))[k])}" for k in bad)
    verdict = VERDICT.get(name, "OK")
    a = after.get(name)
    if a is None:
        branch = "-"
    else:
        d2, bad2 = fixes(a["fixes"])
        branch = f"{a['check']}; default {short(d2)}" + (f"; still bad: {', '.join(bad2)}" if bad2 else "")
    print(f"| {name} | {short(b['JAX'])} | {b['check']} | {applied} | {fixed} | {verdict} | {branch} |")
