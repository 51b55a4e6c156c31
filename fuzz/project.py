"""The differential fuzzer over packages: each generated program split into config.py / model.py / train.py.

    python fuzz/project.py --seed 0 --n 100 [--out DIR]        # one process; JAX on CPU, 8 virtual devices
    python fuzz/project.py --seeds 186,321

For each seed, the program of fuzz/gen.py is split by fuzz/split.py into a package (the mesh and its constants
in config.py, the shard_map'd functions in model.py, the spmd vmap, `main` and the reference in train.py), laid
out as a project (a `src/` layout with pyproject.toml, a flat one, or a package with no project marker, and
absolute or relative imports, by seed), and run under JAX. Then `spmdfix` runs on it as a user runs it, through
its command line (in this process, click's CliRunner, without the results cache):

- `check` of the whole tree: its findings and SPMD910 records are judged by the fuzzer's four invariants
  (fuzz/classify.py: a failing program gets a finding, a program that runs clean gets none, every safe fix of
  each `fix --strategy S` runs and matches the reference), with every fix applied by `fix` to a copy of the tree
  and that copy run and checked again;
- `partial`: `check` of each module alone must report, at the same places, the findings the tree's check
  locates in that module (issue 20: a partial run sees what reaches the file from the project);
- the codes of the single-module program's check are compared with the tree's (`divergent`: counted and
  listed, not judged: a layout may legitimately change what a fix can prove, never what JAX does).

The share of failing programs that get only an SPMD910 record (no finding) is held to the single-module
fuzzer's limit (`classify.ONLY_UNFOLLOWED_LIMIT`, 5 %).

Exit status 1 when a program breaks an invariant (the partial one included) or that share is over the limit. The summary is printed and, with
--out, written with each violating program's modules.
"""

from __future__ import annotations

import argparse
import importlib
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fuzz import worker  # noqa: E402 - sets XLA_FLAGS before jax is imported
from fuzz import gen  # noqa: E402
from fuzz.classify import judge, silence, silence_words  # noqa: E402
from fuzz.split import MODULES, split  # noqa: E402

PACKAGE = "fzpkg"  # one name for every program: its modules are dropped from sys.modules between runs
LAYOUTS = ("src", "flat", "no-marker")


def layout_of(seed: int) -> tuple[str, bool]:
    """(the project's layout, whether the modules import relatively), drawn from the seed."""
    return LAYOUTS[seed % 3], bool((seed // 3) % 2)


def write_project(root: Path, modules: dict[str, str], layout: str) -> Path:
    """Write the package under `root` in `layout`; returns the directory that holds the package (the import
    root)."""
    root.mkdir(parents=True)
    if layout == "src":
        (root / "pyproject.toml").write_text('[project]\nname = "fz"\nversion = "0"\n')
        base = root / "src"
    elif layout == "flat":
        (root / "pyproject.toml").write_text('[project]\nname = "fz"\nversion = "0"\n')
        base = root
    else:
        base = root
    package = base / PACKAGE
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name, text in modules.items():
        (package / f"{name}.py").write_text(text)
    return base


def run_package(base: Path) -> dict:
    """Import the package under `base` afresh and run `train.main()` (fuzz/worker.py's RUN)."""
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    importlib.invalidate_caches()
    paths = {str(base / PACKAGE / f"{m}.py") for m in MODULES}

    def main():
        sys.path.insert(0, str(base))
        try:
            return importlib.import_module(f"{PACKAGE}.train").main()
        finally:
            sys.path.remove(str(base))

    return worker.run_main(main, paths)


def _cli(*args: str) -> tuple[int, str]:
    """`spmdfix ARGS` in this process: (exit code, stdout)."""
    from click.testing import CliRunner

    from spmdfix.cli import main

    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    if result.exit_code == 2:  # a usage error or a run that could not start: never a result to judge
        raise RuntimeError(f"spmdfix {' '.join(args)}: exit 2: {result.output[-600:]}")
    return result.exit_code, result.stdout


def check(target: Path) -> list[dict]:
    """`spmdfix check --show-unresolved` of a file or tree: each finding and SPMD910 record as
    {"code", "file", "line", "message"}."""
    _, out = _cli("check", "--no-cache", "-j", "1", "--output-format", "json", "--show-unresolved", str(target))
    return [{"code": f["code"], "file": Path(f["filename"]).name, "line": f["location"]["row"],
             "message": f["message"]} for f in json.loads(out or "[]")]


def _texts(base: Path) -> dict[str, str]:
    return {m: (base / PACKAGE / f"{m}.py").read_text() for m in MODULES}


def evaluate(seed: int, work: Path) -> dict:
    """The program of `seed` as a package: its run, checks, fixes and their runs, in fuzz/worker.py's reply
    form (with the project's `partial` mismatches and the single module's codes beside)."""
    features = gen.draw(seed)
    source = gen.render(features)
    layout, relative = layout_of(seed)
    modules = split(source, PACKAGE, relative)
    root = work / f"s{seed}"
    base = write_project(root, modules, layout)
    found = check(root)
    findings = [f for f in found if f["code"] != "SPMD910"]
    unfollowed = [f for f in found if f["code"] == "SPMD910"]
    partial = []
    for module in MODULES:
        alone = {(f["code"], f["line"]) for f in check(base / PACKAGE / f"{module}.py") if f["file"] == f"{module}.py"}
        whole = {(f["code"], f["line"]) for f in found if f["file"] == f"{module}.py"}
        if alone != whole:
            partial.append({"module": module, "alone": sorted(alone), "tree": sorted(whole)})
    reply = {"id": seed, "original": run_package(base), "findings": findings, "unfollowed": unfollowed,
             "spmd_vmap": gen.spmd_vmap(features), "partial": partial, "layout": layout, "relative": relative,
             "single_codes": sorted({f["code"] for f in worker.findings_of(source)}), "modules": modules}
    seen: list[dict[str, str]] = []  # the outputs' texts, each run once
    outputs: list[dict] = []
    fixes = []
    from spmdfix.model import STRATEGIES

    for strategy in STRATEGIES:
        for unsafe in (False, True):
            copy = work / f"s{seed}-fix"
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(root, copy)
            copy_base = copy / base.relative_to(root)
            flags = ["--unsafe-fixes"] if unsafe else []
            entry: dict = {"strategy": str(strategy), "unsafe": unsafe, "output": None, "error": ""}
            try:
                _cli("fix", "-j", "1", "-q", "--strategy", str(strategy), *flags, str(copy))
            except Exception as err:  # noqa: BLE001 - a crash of the tool is a finding of the fuzzer
                entry["error"] = f"crash {type(err).__name__}: {err}"[:600]
            texts = _texts(copy_base)
            if texts != modules:
                if texts not in seen:
                    seen.append(texts)
                    source_of = "".join(f"# --- {m}.py\n{t}" for m, t in texts.items())  # (classify names it)
                    outputs.append({"texts": texts, "source": source_of, "run": run_package(copy_base),
                                    "findings": [f for f in check(copy) if f["code"] != "SPMD910"]})
                entry["output"] = seen.index(texts)
            fixes.append(entry)
    shutil.rmtree(work / f"s{seed}-fix", ignore_errors=True)
    shutil.rmtree(root, ignore_errors=True)
    reply["fixes"] = fixes
    reply["outputs"] = outputs
    return reply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--seeds", type=str, default="")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else list(range(args.seed, args.seed + args.n))
    work = Path(tempfile.mkdtemp(prefix="spmdfix-fuzz-project-"))
    counts: dict[str, int] = {}
    violations, divergent = [], []
    start = time.monotonic()
    for i, seed in enumerate(seeds, 1):
        reply = evaluate(seed, work)
        verdict = judge(reply)
        for name, n in verdict.counts.items():
            counts[name] = counts.get(name, 0) + n
        broken = [{"invariant": v.invariant, "detail": v.detail} for v in verdict.violations]
        if reply["partial"]:
            broken.append({"invariant": "partial", "detail": json.dumps(reply["partial"])})
        tree_codes = sorted({f["code"] for f in reply["findings"]})
        if tree_codes != reply["single_codes"]:
            divergent.append({"seed": seed, "single": reply["single_codes"], "tree": tree_codes,
                              "layout": reply["layout"], "relative": reply["relative"]})
        if broken:
            violations.append({"seed": seed, "violations": broken, "layout": reply["layout"],
                               "relative": reply["relative"], "features": gen.describe(gen.draw(seed))})
            print(f"seed {seed}: {broken}", flush=True)
            if args.out:
                case = args.out / f"seed{seed}"
                case.mkdir(parents=True, exist_ok=True)
                for name, text in reply["modules"].items():
                    (case / f"{name}.py").write_text(text)
                (case / "reply.json").write_text(json.dumps({k: v for k, v in reply.items() if k != "modules"}, indent=1, default=str))
        if i % 25 == 0:
            print(f"progress: {i} programs in {time.monotonic() - start:.0f}s, {len(violations)} violating, "
                  f"{len(divergent)} divergent", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    summary = {"programs": len(seeds), "elapsed": round(time.monotonic() - start, 1), "counts": dict(sorted(counts.items())),
               "violating": violations, "divergent": divergent, "silence": silence(counts)}
    print(json.dumps({k: v for k, v in summary.items() if k != "divergent"} | {"divergent": len(divergent)}, indent=1))
    # (the single-module fuzzer's limit: of the programs JAX refuses or runs wrong, at most this share may get
    # only an SPMD910 record, no finding)
    print(f"silence: {silence_words(summary['silence'])}")
    for d in divergent[:20]:
        print("divergent:", d)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    sys.exit(1 if violations or not summary["silence"]["within_limit"] else 0)


if __name__ == "__main__":
    main()
