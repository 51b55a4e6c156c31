"""Whole-codebase benchmark: `spmdfix check` cold and warm against `ruff check` on the same corpus.

    python bench/run.py --corpus DIR [--repeat N] [--ruff PATH] [--keep BASE] [--site] [--fixit PATH]
    python bench/run.py            # no --corpus: the installed jax + flax sources and the golden inputs

The corpus: `--corpus DIR` is a tree of real repositories (bench/README.md says how to unpack the pinned
commits of the eight public JAX repositories into it, with no network afterwards); without it, the `.py`
files of the installed jax and flax packages plus every golden input. The tree is copied into a temporary
directory (`1x`; the cache and the one-byte edits below happen there, never in DIR), and copied twice
over (`2x`: `a/` and `b/`) to show how the time grows. `--site` adds every `.py` file of this
environment's site-packages (`site`). Every file is read once before timing, so the page cache is warm for
every tool; spmdfix's bytecode is written first (`compileall`), as a regular install has it.

Measured on each corpus, interleaved so that load on a shared machine falls on both tools alike
(`--repeat` rounds; each round runs spmdfix, then ruff):
- cold: `spmdfix check --no-cache` (every file read, the analysis run), against
  `ruff check --select E9,F63 --no-cache` (syntax errors and one cheap pyflakes rule);
- warm: `spmdfix check` with its cache filled by a run before, nothing changed;
- edit: `spmdfix check` after one byte of a module that others import changed (`--edit`; a trailing
  newline turned into a space and back, one change per round), its cache filled by the run before.
Wall time is measured around the tool's process; CPU is its processes' user + system time; peak memory is
the largest resident set of any one of its processes (`getrusage(RUSAGE_CHILDREN).ru_maxrss` in a fresh
wrapper process per run). The verdicts compare medians (best runs are printed beside them).

Targets (issue 13): cold <= 1.0x ruff; warm and edit <= 0.25x ruff's cold time; peak memory < 300 MB;
the 2x corpus in <= 2.2x the time of 1x. fixit (`--fixit PATH`, or found at $FIXIT or
/work/venv-fixit/bin/fixit, only when `--with-fixit`) runs once per corpus (minutes).
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
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from spmdfix.prefilter import may_have_findings  # noqa: E402 - after the sys.path insert

TARGET_COLD = 1.0  # x ruff's cold wall time
TARGET_WARM = 0.25  # x ruff's cold wall time
TARGET_PEAK_MB = 300
TARGET_GROWTH = 2.2  # 2x corpus against 1x
FIXIT_RULE = "fixit.rules:NoInheritFromObject"
SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")
TOOL_CACHES = (".spmdfix_cache", ".ruff_cache", "__pycache__")
# A module many others import: the one-byte edit of the "edit" runs (relative to the corpus root).
DEFAULT_EDIT = "jax/jax/_src/sharding_impls.py"

# Runs the command given as arguments and prints its wall time, CPU time, exit status and the peak RSS of
# its processes; a fresh process per measurement so RUSAGE_CHILDREN covers that one command only.
_WRAPPER = r"""
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
wall = time.perf_counter() - t0
use = resource.getrusage(resource.RUSAGE_CHILDREN)
tail = (proc.stdout + proc.stderr).decode("utf-8", "replace").strip().splitlines()[-1:]
print(json.dumps({"wall": wall, "cpu": use.ru_utime + use.ru_stime, "maxrss_kb": use.ru_maxrss,
                  "rc": proc.returncode, "tail": tail[0] if tail else ""}))
"""


@dataclass
class Corpus:
    name: str
    root: Path
    files: int
    lines: int
    prefiltered: int


@dataclass
class Series:
    """The runs of one tool and mode on one corpus."""

    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    peak_kb: int = 0
    rc: int = 0
    tail: str = ""

    def add(self, run: dict) -> None:
        self.walls.append(run["wall"])
        self.cpus.append(run["cpu"])
        self.peak_kb = max(self.peak_kb, run["maxrss_kb"])
        self.rc, self.tail = run["rc"], run["tail"]

    @property
    def best(self) -> float:
        return min(self.walls)

    @property
    def median(self) -> float:
        return statistics.median(self.walls)

    @property
    def peak_mb(self) -> float:
        return self.peak_kb / 1024


# --- corpora -------------------------------------------------------------------------------------------


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"bench: package {name!r} is not installed in {sys.executable}")
    return Path(next(iter(spec.submodule_search_locations)))


def _copy_sources(src: Path, dest: Path) -> None:
    """Copy every `.py` file below `src` (bytecode caches left out) to the same place below `dest`."""
    for path in sorted(src.rglob("*.py")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        target = dest / path.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


def build_one(base: Path, corpus: Path | None) -> Path:
    """base/corpus-1x: a copy of `corpus` (tool caches left out), or the installed jax + flax sources and
    the golden inputs."""
    one = base / "corpus-1x"
    if corpus is not None:
        shutil.copytree(corpus, one, symlinks=True, ignore=shutil.ignore_patterns(*TOOL_CACHES))
        return one
    for package in ("jax", "flax"):
        _copy_sources(_package_dir(package), one / package)
    for path in sorted((REPO / "golden").glob("*/*/input.py")):
        dest = one / "golden" / path.parent.parent.name / f"{path.parent.name}.py"
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
    return one


def build_two(base: Path, one: Path) -> Path:
    two = base / "corpus-2x"
    for copy in ("a", "b"):
        shutil.copytree(one, two / copy, symlinks=True)
    return two


def build_site(base: Path) -> Path:
    """Every `.py` file of this environment's site-packages (real code of ordinary density)."""
    root = base / "corpus-site"
    _copy_sources(Path(sysconfig.get_paths()["purelib"]), root)
    return root


def describe(name: str, root: Path) -> Corpus:
    """Count source files, lines and prefilter passes, reading every file once (a warm page cache)."""
    files = lines = passed = 0
    for directory, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in TOOL_CACHES and d != ".git"]
        for name_ in names:
            path = os.path.join(directory, name_)
            if not name_.endswith(SOURCE_SUFFIXES) or not os.path.isfile(path):
                continue
            data = Path(path).read_bytes()
            files += 1
            lines += data.count(b"\n")
            passed += name_.endswith(".py") and may_have_findings(data.decode("utf-8", "replace"))
    return Corpus(name, root, files, lines, passed)


# --- running -------------------------------------------------------------------------------------------


def run_once(cmd: list[str], cwd: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", _WRAPPER, *cmd], capture_output=True, text=True, cwd=cwd, check=False)
    if out.returncode != 0:
        raise SystemExit(f"bench: wrapper failed for {cmd}: {out.stderr}")
    return json.loads(out.stdout)


class OneByteEdit:
    """Turns the last byte of a module (a newline) into a space and back, one change per call."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.original = path.read_bytes()
        if not self.original.endswith(b"\n"):
            raise SystemExit(f"bench: {path} does not end with a newline; choose another --edit module")
        self.edited = False

    def toggle(self) -> None:
        self.edited = not self.edited
        self.path.write_bytes(self.original[:-1] + b" " if self.edited else self.original)

    def restore(self) -> None:
        self.path.write_bytes(self.original)


def measure_corpus(
    corpus: Corpus, spmdfix: list[str], ruff: list[str] | None, repeat: int, edit: str | None, cache_dir: Path
) -> dict[str, Series]:
    """The cold, warm and edit series of spmdfix and the cold series of ruff on one corpus, interleaved."""
    root = str(corpus.root)
    cached = [*spmdfix, "--cache-dir", str(cache_dir)]
    series = {mode: Series() for mode in ("spmdfix cold", "spmdfix warm", "spmdfix edit", "ruff cold")}

    def ruff_round() -> None:
        if ruff is not None:
            series["ruff cold"].add(run_once([*ruff, root], corpus.root))

    for _ in range(repeat):
        series["spmdfix cold"].add(run_once([*spmdfix, "--no-cache", root], corpus.root))
        ruff_round()
    shutil.rmtree(cache_dir, ignore_errors=True)
    run_once([*cached, root], corpus.root)  # fills the cache
    for _ in range(repeat):
        series["spmdfix warm"].add(run_once([*cached, root], corpus.root))
        ruff_round()
    target = corpus.root / edit if edit else None
    if target is not None and target.is_file():
        editor = OneByteEdit(target)
        try:
            for _ in range(repeat):
                editor.toggle()
                series["spmdfix edit"].add(run_once([*cached, root], corpus.root))
                ruff_round()
        finally:
            editor.restore()
    return {mode: s for mode, s in series.items() if s.walls}


def compile_spmdfix() -> None:
    """Write spmdfix's bytecode, as `pip install` does for a regular install: an editable install run with
    PYTHONDONTWRITEBYTECODE=1 would otherwise compile every module on every run."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "spmdfix")], check=True, capture_output=True)


def _sibling(name: str) -> str | None:
    path = Path(sys.executable).parent / name
    return str(path) if path.exists() else shutil.which(name)


def find_fixit(explicit: str | None) -> str | None:
    for candidate in (explicit, os.environ.get("FIXIT"), "/work/venv-fixit/bin/fixit", shutil.which("fixit")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


# --- report --------------------------------------------------------------------------------------------


def _met(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


def table(corpora: list[Corpus], results: dict[str, dict[str, Series]]) -> list[str]:
    rows = [
        "| corpus | tool / mode | runs | wall s (median) | wall s (best) | CPU s (median) | x ruff cold (median) "
        "| peak MB (largest process) | exit |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for corpus in corpora:
        found = results.get(corpus.name, {})
        ruff = found.get("ruff cold")
        for mode, s in found.items():
            ratio = f"{s.median / ruff.median:.2f}" if ruff else "-"
            rows.append(
                f"| {corpus.name} | {mode} | {len(s.walls)} | {s.median:.2f} | {s.best:.2f} | "
                f"{statistics.median(s.cpus):.2f} | {ratio} | {s.peak_mb:.0f} | {s.rc} |"
            )
    return rows


def verdicts(results: dict[str, dict[str, Series]]) -> list[str]:
    out = []
    for name, found in results.items():
        ruff = found.get("ruff cold")
        cold = found.get("spmdfix cold")
        if ruff is not None and cold is not None:
            ratio = cold.median / ruff.median
            out.append(
                f"- {name}: cold <= {TARGET_COLD:.1f}x ruff: {cold.median:.2f} s vs {ruff.median:.2f} s "
                f"({ratio:.2f}x; best runs {cold.best / ruff.best:.2f}x) -> {_met(ratio <= TARGET_COLD)}"
            )
        for mode, label in (("spmdfix warm", "warm, nothing changed"), ("spmdfix edit", "warm, one byte changed")):
            s = found.get(mode)
            if ruff is not None and s is not None:
                ratio = s.median / ruff.median
                out.append(
                    f"- {name}: {label} <= {TARGET_WARM:.2f}x ruff cold: {s.median:.2f} s ({ratio:.2f}x) "
                    f"-> {_met(ratio <= TARGET_WARM)}"
                )
        peak = max((s.peak_mb for mode, s in found.items() if mode.startswith("spmdfix")), default=None)
        if peak is not None:
            out.append(f"- {name}: spmdfix peak memory < {TARGET_PEAK_MB} MB: {peak:.0f} MB -> {_met(peak < TARGET_PEAK_MB)}")
    one, two = results.get("1x", {}).get("spmdfix cold"), results.get("2x", {}).get("spmdfix cold")
    if one is not None and two is not None:
        growth = two.median / one.median
        out.append(f"- 2x corpus <= {TARGET_GROWTH}x the time of 1x (cold): {growth:.2f}x -> {_met(growth <= TARGET_GROWTH)}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="A tree of repositories to copy and check (bench/README.md).")
    parser.add_argument("--repeat", type=int, default=5, help="Rounds per mode (each: spmdfix, then ruff).")
    parser.add_argument("--ruff", help="Path of a ruff executable (default: next to this interpreter, then PATH).")
    parser.add_argument("--keep", type=Path, help="Build the corpora in BASE (kept) instead of a temporary directory.")
    parser.add_argument("--edit", default=DEFAULT_EDIT, help=f"The module of the one-byte edits [{DEFAULT_EDIT}].")
    parser.add_argument("--no-2x", action="store_true", help="Leave out the corpus copied twice.")
    parser.add_argument("--site", action="store_true", help="Add every .py file of this environment's site-packages.")
    parser.add_argument("--with-fixit", action="store_true", help="Also run fixit once per corpus (minutes).")
    parser.add_argument("--fixit", help="Path of a fixit executable (implies --with-fixit).")
    args = parser.parse_args(argv)
    if args.corpus is not None and not args.corpus.is_dir():
        parser.error(f"--corpus {args.corpus}: not a directory")

    spmdfix_script = _sibling("spmdfix")
    if spmdfix_script is None:
        raise SystemExit(f"bench: no spmdfix script next to {sys.executable}")
    spmdfix = [spmdfix_script, "check"]
    ruff_path = args.ruff or _sibling("ruff")
    ruff = [ruff_path, "check", "--select", "E9,F63", "--no-cache", "--quiet"] if ruff_path else None
    fixit = find_fixit(args.fixit) if (args.with_fixit or args.fixit) else None

    with tempfile.TemporaryDirectory(prefix="spmdfix-bench-") as tmp:
        base = args.keep or Path(tmp)
        if args.keep:
            shutil.rmtree(base, ignore_errors=True)
            base.mkdir(parents=True)
        one = build_one(base, args.corpus)
        corpora = [describe("1x", one)]
        if not args.no_2x:
            corpora.append(describe("2x", build_two(base, one)))
        if args.site:
            corpora.append(describe("site", build_site(base)))
        compile_spmdfix()
        results: dict[str, dict[str, Series]] = {}
        for corpus in corpora:
            edit = args.edit if corpus.name == "1x" else None
            cache_dir = base / f"cache-{corpus.name}"
            results[corpus.name] = measure_corpus(corpus, spmdfix, ruff, args.repeat, edit, cache_dir)
            if fixit and corpus.name != "site":
                fx = Series()
                fx.add(run_once([fixit, "--rules", FIXIT_RULE, "lint", str(corpus.root)], corpus.root))
                results[corpus.name]["fixit lint"] = fx

    where = f"{args.corpus} (copied)" if args.corpus else "installed jax + flax sources + golden inputs"
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; corpus: {where}")
    for c in corpora:
        print(f"corpus {c.name}: {c.files} files ({', '.join(SOURCE_SUFFIXES)}), {c.lines} lines, "
              f"{c.prefiltered} .py files pass the prefilter")
    if ruff is None:
        print("ruff: not found (--ruff PATH); no ratios")
    print()
    for line in table(corpora, results):
        print(line)
    print()
    print("Targets (medians):")
    for line in verdicts(results):
        print(line)
    for name, found in results.items():
        for mode, s in found.items():
            if s.tail:
                print(f"  [{name} {mode}] last output line: {s.tail[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
