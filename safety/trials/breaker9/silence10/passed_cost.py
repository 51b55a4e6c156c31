"""For each corpus repository: how many modules a partial run looks at (may_be_reached), and how many
importers each analyses before (reaching + imported + undecided) and the extra passed_candidates."""
import sys, os
from spmdfix.project_graph import graph_of
from spmdfix.files import find_project_root
from spmdfix.prefilter.reached import may_be_reached
from pathlib import Path
from spmdfix.prefilter import may_have_findings
import functools
@functools.cache
def mhf(p):
    try:
        return may_have_findings(open(p, encoding="utf-8", errors="replace").read())
    except OSError:
        return False

for repo in sorted(Path("/work/corpus").iterdir()):
    if not repo.is_dir():
        continue
    g = graph_of(str(repo.resolve()))
    mods = 0; before = 0; extra = 0; worst = 0; with_extra = 0
    for path in g.files:
        if not path.endswith(".py"):
            continue
        try:
            text = open(path, encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        if not may_be_reached(text):
            continue
        mods += 1
        b = len(set(x for x in set(g.reaching_candidates(path)) | set(g.imported_candidates(path)) | set(g.undecided_candidates(path)) if mhf(x)))
        e = len([x for x in g.passed_candidates(path) if mhf(x)])
        before += b; extra += e; worst = max(worst, e); with_extra += bool(e)
    print(f"{repo.name}: {len(g.files)} files, {mods} partial-run modules, importers analysed {before} -> {before + extra} (+{extra}; {with_extra} modules gain some; most for one module +{worst})")
