"""Builds the README table from after.txt (harness summaries) and before-main.txt (tree check on main)."""
import re, pathlib
HERE = pathlib.Path(__file__).resolve().parent
VERDICT = {}
for line in (HERE / "verdicts.txt").read_text().splitlines():
    if line.strip():
        k, v = line.split(":", 1)
        VERDICT[k.strip()] = v.strip()
before = {}
for line in (HERE / "before-main.txt").read_text().splitlines():
    k, v = line.split(":", 1)
    before[k] = v.strip()
rows = []
for block in (HERE / "after.txt").read_text().split("== ")[1:]:
    lines = block.splitlines()
    name = lines[0].strip()
    get = lambda tag: next((l.split(":", 1)[1].strip() for l in lines if l.strip().startswith(tag)), "")
    jax = get("JAX").replace("FAIL: ", "")
    jax = "match" if jax.startswith("RESULT: match") else ("fails: " + jax.split(":")[0] + (": " + jax.split(":")[1].strip()[:45] if ":" in jax else ""))
    fixes = get("fixes")
    default = re.search(r"default: ([^;]*)", fixes).group(1)
    applied = "no" if default == "(no change)" else "yes"
    fixed = "-" if applied == "no" else default.replace("RESULT: ", "").replace("FAIL: ValueError: ", "raises ")[:60]
    rows.append(f"| {name} | {jax} | {get('check')} | {before.get(name, '?')} | {applied} | {fixed} | {VERDICT.get(name, 'OK')} |")
print("| program | JAX truth | spmdfix tree (base11) | tree on main | safe fix applied? | fixed program | verdict |")
print("|---|---|---|---|---|---|---|")
print("\n".join(rows))
