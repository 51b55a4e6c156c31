"""Whole-codebase benchmark: `spmdfix check` against `ruff check` and `fixit lint` on the same corpus.

    python bench/run.py [--keep DIR] [--fixit PATH] [--ruff PATH] [--repeat N] [--no-site]

Builds the corpora in a temporary directory, the same bytes every time for the same installed versions:
the `.py` files of the installed `jax` and `flax` packages plus every `golden/*/*/input.py` of this
repository (`corpus-1x/`: one file in eight holds a collision, far denser than any real codebase), the
same files twice over (`corpus-2x/a/`, `corpus-2x/b/`), and every `.py` file of this environment's
site-packages (`corpus-site/`: thousands of files of real code). spmdfix and ruff run `--repeat` times per
corpus (5 by default; the best and the median wall time are printed, the verdicts use the best), fixit
once and not on the site corpus, all after the corpus was read once, so the page cache is warm for all of
them; spmdfix's bytecode is written first, as a regular install has it. Wall time is measured around the
tool's process; peak memory is the largest resident set of any single process of the tool
(`getrusage(RUSAGE_CHILDREN).ru_maxrss` in a fresh wrapper process per run; a tool that spreads work over
worker processes, as fixit does, uses more in total).

Tools: `spmdfix check` (this interpreter's environment; its `-j` default when the CLI has one),
`ruff check --select E9,F63 --no-cache` (syntax errors and a cheap pyflakes rule), and
`fixit lint` with one cheap built-in rule (`fixit.rules:NoInheritFromObject`, no metadata providers).
fixit 2.x pins click<8.2, which spmdfix's own tests need, so it is looked for in a separate environment
(`--fixit`, `$FIXIT`, `/work/venv-fixit/bin/fixit`, then `fixit` on PATH); without it that row is skipped.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from spmdfix.prefilter import may_have_findings  # noqa: E402 - after the sys.path insert

TARGET_PEAK_MB = 500
TARGET_FIXIT_RATIO = 20.0
FIXIT_RULE = "fixit.rules:NoInheritFromObject"

# Runs the command given as arguments and prints its wall time, exit status and the peak RSS of its
# processes; a fresh process per measurement so RUSAGE_CHILDREN covers that one command only.
_WRAPPER = r"""
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
wall = time.perf_counter() - t0
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
tail = (proc.stdout + proc.stderr).decode("utf-8", "replace").strip().splitlines()[-1:]
print(json.dumps({"wall": wall, "maxrss_kb": rss, "rc": proc.returncode, "tail": tail[0] if tail else ""}))
"""


@dataclass
class Corpus:
    name: str
    root: Path
    files: int
    lines: int
    prefiltered: int


@dataclass
class Measure:
    tool: str
    corpus: str
    wall: float  # the best of the runs
    median: float
    runs: int
    peak_mb: float
    rc: int
    tail: str


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"bench: package {name!r} is not installed in {sys.executable}")
    return Path(next(iter(spec.submodule_search_locations)))


def build_corpus(base: Path) -> tuple[Path, Path]:
    """Copy the sources into base/corpus-1x and twice into base/corpus-2x; return both roots."""
    one = base / "corpus-1x"
    for package in ("jax", "flax"):
        _copy_sources(_package_dir(package), one / package)
    for path in sorted((REPO / "golden").glob("*/*/input.py")):
        dest = one / "golden" / path.parent.parent.name / f"{path.parent.name}.py"
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
    two = base / "corpus-2x"
    for copy in ("a", "b"):
        shutil.copytree(one, two / copy)
    return one, two


def build_site_corpus(base: Path) -> Path:
    """Copy every `.py` file of this environment's site-packages into base/corpus-site (a large codebase
    of real code, as dense in spmd vmaps as such code is: jax's own files are the only ones near one)."""
    root = base / "corpus-site"
    _copy_sources(Path(sysconfig.get_paths()["purelib"]), root)
    return root


def _copy_sources(src: Path, dest: Path) -> None:
    """Copy every `.py` file below `src` (bytecode caches left out) to the same place below `dest`."""
    for path in sorted(src.rglob("*.py")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        target = dest / path.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


def describe(name: str, root: Path) -> Corpus:
    """Count files, lines and prefilter passes (and read every file once: a warm page cache for all tools)."""
    files = lines = passed = 0
    for path in sorted(root.rglob("*.py")):
        data = path.read_bytes()
        files += 1
        lines += data.count(b"\n")
        passed += may_have_findings(data.decode("utf-8", "replace"))
    return Corpus(name, root, files, lines, passed)


def measure(tool: str, cmd: list[str], corpus: Corpus, repeat: int) -> Measure:
    """Run `cmd` `repeat` times; the best and the median wall time, the largest peak memory."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", _WRAPPER, *cmd], capture_output=True, text=True, cwd=corpus.root, check=False
        )
        if out.returncode != 0:
            raise SystemExit(f"bench: wrapper failed for {cmd}: {out.stderr}")
        runs.append(json.loads(out.stdout))
    walls = sorted(r["wall"] for r in runs)
    last = runs[-1]
    peak = max(r["maxrss_kb"] for r in runs) / 1024
    return Measure(tool, corpus.name, walls[0], statistics.median(walls), len(walls), peak, last["rc"], last["tail"])


def compile_spmdfix() -> None:
    """Write spmdfix's bytecode, as `pip install` does for a regular install: an editable install run with
    PYTHONDONTWRITEBYTECODE=1 (this machine sets it) would otherwise compile every module on every run."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "spmdfix")], check=True, capture_output=True)


def _sibling(name: str) -> str | None:
    path = Path(sys.executable).parent / name
    return str(path) if path.exists() else shutil.which(name)


def find_fixit(explicit: str | None) -> str | None:
    for candidate in (explicit, os.environ.get("FIXIT"), "/work/venv-fixit/bin/fixit", shutil.which("fixit")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def commands(fixit: str | None, ruff: str | None) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The command of each tool (the corpus root is appended), and why a tool is left out."""
    spmdfix = _sibling("spmdfix")
    cmds: dict[str, list[str]] = {}
    skipped: dict[str, str] = {}
    if spmdfix:
        cmds["spmdfix check"] = [spmdfix, "check"]
    else:
        skipped["spmdfix check"] = f"no spmdfix script next to {sys.executable}"
    ruff = ruff or _sibling("ruff")
    if ruff:
        cmds["ruff check"] = [ruff, "check", "--select", "E9,F63", "--no-cache", "--quiet"]
    else:
        skipped["ruff check"] = "ruff not found"
    if fixit:
        cmds["fixit lint"] = [fixit, "--rules", FIXIT_RULE, "lint"]
    else:
        skipped["fixit lint"] = "fixit not found (pip install fixit into a separate venv; see bench/README.md)"
    return cmds, skipped


def _has_jobs_option(spmdfix_cmd: list[str]) -> bool:
    out = subprocess.run([*spmdfix_cmd, "--help"], capture_output=True, text=True, check=False)
    return " -j" in out.stdout or "--jobs" in out.stdout


def table(corpora: list[Corpus], results: dict[tuple[str, str], Measure], tools: list[str]) -> list[str]:
    rows = [
        "| tool | corpus | files | lines | runs | wall s (best) | wall s (median) | peak MB (largest process) "
        "| exit | x spmdfix time | growth 1x->2x |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for tool in tools:
        for corpus in corpora:
            m = results.get((tool, corpus.name))
            if m is None:
                continue
            ref = results.get(("spmdfix check", corpus.name))
            ratio = f"{m.wall / ref.wall:.1f}" if ref else "-"
            growth = "-"
            if corpus.name == "2x" and (tool, "1x") in results:
                growth = f"{m.wall / results[(tool, '1x')].wall:.2f}x"
            rows.append(
                f"| {tool} | {corpus.name} | {corpus.files} | {corpus.lines} | {m.runs} | {m.wall:.2f} | "
                f"{m.median:.2f} | {m.peak_mb:.0f} | {m.rc} | {ratio} | {growth} |"
            )
    return rows


def verdicts(corpora: list[Corpus], results: dict[tuple[str, str], Measure]) -> list[str]:
    out = []
    for corpus in corpora:
        s = results.get(("spmdfix check", corpus.name))
        r = results.get(("ruff check", corpus.name))
        f = results.get(("fixit lint", corpus.name))
        if s is None:
            continue
        if r is not None:
            ok = s.wall <= r.wall
            out.append(
                f"- {corpus.name}: spmdfix <= ruff time (best runs): {s.wall:.2f} s vs {r.wall:.2f} s "
                f"({s.wall / r.wall:.1f}x) -> {_met(ok)}"
            )
        if f is not None:
            ratio = f.wall / s.wall
            ok = ratio >= TARGET_FIXIT_RATIO
            target = f">= {TARGET_FIXIT_RATIO:.0f}x faster than fixit"
            out.append(f"- {corpus.name}: spmdfix {target}: {ratio:.1f}x -> {_met(ok)}")
        ok = s.peak_mb < TARGET_PEAK_MB
        out.append(f"- {corpus.name}: spmdfix peak memory < {TARGET_PEAK_MB} MB: {s.peak_mb:.0f} MB -> {_met(ok)}")
    return out


def _met(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="Build the corpus in DIR (kept) instead of a temporary directory.")
    parser.add_argument(
        "--fixit", help="Path of a fixit executable (default: $FIXIT, /work/venv-fixit/bin/fixit, PATH)."
    )
    parser.add_argument("--ruff", help="Path of a ruff executable (default: next to this interpreter, then PATH).")
    parser.add_argument(
        "--repeat", type=int, default=5, help="Runs of spmdfix and ruff per corpus (fixit runs once: minutes)."
    )
    parser.add_argument("--skip", action="append", default=[], help="Leave a tool out (e.g. --skip fixit).")
    parser.add_argument("--no-site", action="store_true", help="Leave out the site-packages corpus.")
    args = parser.parse_args(argv)

    cmds, skipped = commands(find_fixit(args.fixit), args.ruff)
    for name in list(cmds):
        if any(s in name for s in args.skip):
            skipped[name] = "--skip"
            del cmds[name]

    with tempfile.TemporaryDirectory(prefix="spmdfix-bench-") as tmp:
        base = args.keep or Path(tmp)
        if args.keep:
            shutil.rmtree(base, ignore_errors=True)
            base.mkdir(parents=True)
        one, two = build_corpus(base)
        corpora = [describe("1x", one), describe("2x", two)]
        if not args.no_site:
            corpora.append(describe("site", build_site_corpus(base)))
        compile_spmdfix()
        results: dict[tuple[str, str], Measure] = {}
        for tool, cmd in cmds.items():
            repeat = 1 if tool == "fixit lint" else args.repeat
            for corpus in corpora:
                if tool == "fixit lint" and corpus.name == "site":
                    continue  # fixit would take a quarter of an hour here; its ratio shows on 1x and 2x
                results[(tool, corpus.name)] = measure(tool, [*cmd, str(corpus.root)], corpus, repeat)

    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; corpora: installed jax + flax sources + golden "
        "inputs (1x, and twice over: 2x); every .py file of this environment's site-packages (site)"
    )
    if "spmdfix check" in cmds:
        jobs = _has_jobs_option(cmds["spmdfix check"])
        print(f"spmdfix check: {'-j at its default (CPU count)' if jobs else 'no -j option in this CLI: one process'}")
    for c in corpora:
        print(
            f"corpus {c.name}: {c.files} files, {c.lines} lines, {c.prefiltered} pass the prefilter (may_have_findings)"
        )
    print()
    for line in table(corpora, results, list(cmds)):
        print(line)
    print()
    print("Targets:")
    for line in verdicts(corpora, results):
        print(line)
    for tool, why in skipped.items():
        print(f"- {tool}: not run: {why}")
    for m in results.values():
        if m.tail:
            print(f"  [{m.tool} {m.corpus}] last output line: {m.tail[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
