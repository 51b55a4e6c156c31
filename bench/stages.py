"""Where a cold `spmdfix check` spends its CPU, stage by stage, in one process (no workers, no cache).

`python bench/stages.py [DIR ...] [--top 15]` (default `/work/corpus`) discovers the files as `check` does,
then times, with `time.process_time`, reading, the prefilter over every file, and for each text the prefilter
keeps: `ast.parse`, building the analysis (`Analyzer`: scopes and indexes) and the facts and plan (findings).
It prints the totals and the costliest files. For before/after comparisons of speed work: CPU seconds are
steadier than wall seconds on a shared machine.
"""

from __future__ import annotations

import argparse
import ast
import gc
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=["/work/corpus"])
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    clock = time.process_time
    t0 = clock()
    from spmdfix import api, pipeline
    from spmdfix.files import discover, read_source
    from spmdfix.plan import plan_findings
    from spmdfix.prefilter import may_have_findings

    totals = {"imports": clock() - t0}
    t = clock()
    files = discover(args.paths)
    totals["discover"] = clock() - t
    read, prefilter, kept = 0.0, 0.0, []
    for path in files:
        t = clock()
        try:
            text = pipeline.prepare(path, read_source(path).text).text
        except Exception:  # noqa: BLE001 - skipped files (generated, non-Python notebooks) cost no analysis
            read += clock() - t
            continue
        t1 = clock()
        passes = may_have_findings(text)
        t2 = clock()
        read, prefilter = read + t1 - t, prefilter + t2 - t1
        if passes:
            kept.append((path, text))
    totals["read + prepare"], totals["prefilter"] = read, prefilter
    rows = []
    for path, text in kept:
        gc.disable()
        t = clock()
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        t1 = clock()
        analyzer = api._analyzer(text, tree, path, api.project_index(path))
        t2 = clock()
        findings = plan_findings(analyzer.facts(), "batch")
        t3 = clock()
        del analyzer, tree
        gc.enable()
        rows.append((t3 - t, t1 - t, t2 - t1, t3 - t2, len(findings), len(text.splitlines()), path))
    for i, name in enumerate(("parse", "analyzer", "facts + plan"), start=1):
        totals[name] = sum(r[i] for r in rows)
    print(f"{len(files)} files, {len(kept)} pass the prefilter, {sum(1 for r in rows if r[4])} with findings")
    for name, value in totals.items():
        print(f"  {name:16} {value:6.3f} s CPU")
    print(f"  {'total':16} {sum(totals.values()):6.3f} s CPU")
    print(f"\n{'total':>7} {'parse':>6} {'index':>6} {'facts':>6} {'found':>5} {'lines':>6}  file")
    for total, parse, build, facts, found, lines, path in sorted(rows, key=lambda r: -r[0])[: args.top]:
        print(f"{total:7.3f} {parse:6.3f} {build:6.3f} {facts:6.3f} {found:5} {lines:6}  {path}")


if __name__ == "__main__":
    main()
