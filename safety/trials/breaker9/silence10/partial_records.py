"""For each corpus repository, a partial run (`reaching.reached`) of every module a partial run looks at
(`may_be_reached`): the findings and SPMD910 records it reports from other modules; written as JSON
{repo/path: [lines]} to argv[1]. Run once per checkout (PYTHONPATH) and compare."""
import json, sys, time
from pathlib import Path
from spmdfix.api import project_index
from spmdfix.model import Options
from spmdfix.prefilter.reached import may_be_reached
from spmdfix.project_graph import graph_of
from spmdfix.reaching import reached

out = {}
t0 = time.process_time()
for repo in sorted(Path("/work/corpus").iterdir()):
    if not repo.is_dir() or (len(sys.argv) > 2 and repo.name not in sys.argv[2:]):
        continue
    index = project_index(repo, repo)
    g = graph_of(index.root)
    for path in g.files:
        if not path.endswith(".py"):
            continue
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        if not may_be_reached(text):
            continue
        r = reached(path, text, index, Options())
        lines = [f"{f.code} {f.span.path}:{f.span.start}" for f in r.findings]
        lines += [f"SPMD910 {u.span.path}:{u.span.start} <- {u.vmap.path}:{u.vmap.start}: {u.what}" for u in r.unfollowed]
        if lines:
            out[str(Path(path).relative_to("/work/corpus"))] = sorted(lines)
Path(sys.argv[1]).write_text(json.dumps(out, indent=1, sort_keys=True))
print(len(out), "modules with something;", sum(len(v) for v in out.values()), "lines; cpu", round(time.process_time() - t0, 1))
