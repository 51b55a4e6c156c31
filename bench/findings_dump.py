"""Dump `spmdfix check --output-format json --no-cache` of every repository of a corpus, for before/after diffs.

`python bench/findings_dump.py --corpus /work/corpus OUT.json` writes one JSON object {repo: findings}; with
`--against BEFORE.json` it also compares and exits 1 when a repository's findings differ. Speed work must
leave the findings of the corpus unchanged: dump before a change, then compare after it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path


def dump(corpus: Path, spmdfix: str) -> dict[str, object]:
    """{repository name: its JSON report} for each directory under `corpus` (sorted)."""
    out: dict[str, object] = {}
    for repo in sorted(p for p in corpus.iterdir() if p.is_dir()):
        run = subprocess.run(
            [spmdfix, "check", "--output-format", "json", "--no-cache", "--exit-zero", "-q", str(repo)],
            capture_output=True,
            text=True,
            cwd=corpus,
        )
        if run.returncode != 0:
            sys.exit(f"{repo.name}: spmdfix exited {run.returncode}\n{run.stderr}")
        # (each finding's `url` names the rule's page where spmdfix is installed: not a finding's content)
        out[repo.name] = [{k: v for k, v in f.items() if k != "url"} for f in json.loads(run.stdout or "[]")]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("/work/corpus"))
    parser.add_argument("--spmdfix", default=str(Path(sys.executable).with_name("spmdfix")))
    parser.add_argument("--against", type=Path, help="a dump to compare with")
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    found = dump(args.corpus.resolve(), args.spmdfix)
    args.out.write_text(json.dumps(found, indent=1, sort_keys=True))
    print(", ".join(f"{name} {len(items)}" for name, items in found.items()))
    if args.against is not None:
        before = json.loads(args.against.read_text())
        differ = [name for name in sorted(set(before) | set(found)) if before.get(name) != found.get(name)]
        print("identical" if not differ else f"DIFFERENT: {', '.join(differ)}")
        sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
