"""Where a cold `spmdfix check` spends its CPU, stage by stage, in one process (no workers, no cache).

`python bench/stages.py [DIR ...] [--top 15] [--repeat 1]` (default `/work/corpus`) discovers the files as `check` does,
then times, with `time.process_time`, reading, the test of each file's bytes, decoding and preparing the files
it keeps, the prefilter over their texts, and for each text the prefilter keeps: `ast.parse`, building the
analysis (`Analyzer`: scopes and indexes) and the facts and plan (findings).
It prints the totals and the costliest files (with `--repeat N`, the least of N rounds for each). For
before/after comparisons of speed work: CPU seconds are steadier than wall seconds on a shared machine.
"""

from __future__ import annotations

import argparse
import ast
import gc
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=["/work/corpus"])
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    rounds = [_round(args.paths) for _ in range(args.repeat)]
    totals = {name: min(r[0][name] for r in rounds) for name in rounds[0][0]}
    totals["imports"] = rounds[0][0]["imports"]  # (only the first round imports)
    rows = [
        (*(min(r[1][i][k] for r in rounds) for k in range(5)), *rounds[0][1][i][5:])
        for i in range(len(rounds[0][1]))
    ]
    kept, files = rounds[0][2], rounds[0][3]
    print(f"{files} files, {kept} pass the prefilter, {sum(1 for r in rows if r[5])} with findings")
    for name, value in totals.items():
        print(f"  {name:16} {value:6.3f} s CPU")
    print(f"  {'total':16} {sum(totals.values()):6.3f} s CPU")
    print(f"\n{'total':>7} {'parse':>6} {'index':>6} {'facts':>6} {'free':>6} {'found':>5} {'lines':>6}  file")
    for total, parse, build, facts, free, found, lines, path in sorted(rows, key=lambda r: -r[0])[: args.top]:
        print(f"{total:7.3f} {parse:6.3f} {build:6.3f} {facts:6.3f} {free:6.3f} {found:5} {lines:6}  {path}")


def _round(paths: list[str]) -> tuple[dict[str, float], list[tuple], int, int]:
    """One round: (CPU seconds by stage, a row per file kept, how many kept, how many files)."""
    clock = time.process_time
    t0 = clock()
    from spmdfix import api, pipeline, prefilter, source_analysis
    from spmdfix.discovery import discover
    from spmdfix.files import decode, plain_ascii, read_bytes
    from spmdfix.plan import plan_findings
    from spmdfix.prefilter import may_have_findings
    from spmdfix.runner import clean_if_utf8

    totals = {"imports": clock() - t0}
    api._INDEXES.clear()  # each round parses other modules of the projects afresh, as a cold run does
    prefilter.may_have_findings.cache_clear()
    t = clock()
    files = discover(paths)
    totals["discover"] = clock() - t
    # As `runner.one_file._run_bytes` goes: the bytes' test, then decoding and preparing only the texts it keeps.
    read, by_bytes, prepare, prefilter, kept = 0.0, 0.0, 0.0, 0.0, []
    for path in files:
        t = clock()
        try:
            raw = read_bytes(path)
        except OSError:
            continue
        t1 = clock()
        cleared = clean_if_utf8(path, raw)
        t2 = clock()
        read, by_bytes = read + t1 - t, by_bytes + t2 - t1
        if cleared and plain_ascii(raw):
            continue
        try:
            source = decode(path, raw)
            if cleared and source.encoding in ("utf-8", "utf-8-sig"):
                prepare += clock() - t2
                continue
            text = pipeline.prepare(path, source.text).text
        except Exception:  # noqa: BLE001 - unreadable, generated, non-Python notebooks cost no analysis
            prepare += clock() - t2
            continue
        t3 = clock()
        passes = may_have_findings(text)
        t4 = clock()
        prepare, prefilter = prepare + t3 - t2, prefilter + t4 - t3
        if passes:
            kept.append((path, text))
    totals["read"], totals["bytes test"] = read, by_bytes
    totals["decode + prepare"], totals["prefilter"] = prepare, prefilter
    rows = []
    for path, text in kept:
        gc.disable()
        t = clock()
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        t1 = clock()
        analyzer = source_analysis._analyzer(text, tree, path, api.project_index(path))
        t2 = clock()
        findings = plan_findings(analyzer.facts(), "batch")
        t3 = clock()
        if hasattr(analyzer.ix, "release"):
            analyzer.ix.release()  # as `api.check_source` lets the analysis go
        del analyzer, tree
        gc.enable()
        gc.collect(0)  # what the collection after the analysis costs, where `check_source` pays it
        t4 = clock()
        rows.append((t4 - t, t1 - t, t2 - t1, t3 - t2, t4 - t3, len(findings), len(text.splitlines()), path))
    for i, name in enumerate(("parse", "analyzer", "facts + plan", "free"), start=1):
        totals[name] = sum(r[i] for r in rows)
    return totals, rows, len(kept), len(files)


if __name__ == "__main__":
    main()
