"""Dump `spmdfix check --output-format json --no-cache` of every repository of a corpus, for before/after diffs.

`python bench/findings_dump.py --corpus /work/corpus OUT.json` writes one JSON object {repo: findings}; with
`--against BEFORE.json` it also compares and exits 1 when a repository's findings differ. Speed work must
leave the findings of the corpus unchanged: dump before a change, then compare after it.

`--unresolved` adds the SPMD910 records (`check --show-unresolved`) to the dump and prints them grouped by
stop reason: the record's message with each quoted expression replaced by `...`, so "the value of
`spmd_axis_name` (`self.spmd_axis_name`) is not known" and the same stop at another expression are one
reason. Analysis work that follows more paths compares these lists before and after.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path


UNRESOLVED = "SPMD910"


def dump(corpus: Path, spmdfix: str, unresolved: bool = False) -> dict[str, object]:
    """{repository name: its JSON report} for each directory under `corpus` (sorted); with `unresolved`,
    the report holds the SPMD910 records too (`--show-unresolved`). Exits when spmdfix fails on one."""
    out: dict[str, object] = {}
    extra = ["--show-unresolved"] if unresolved else []
    for repo in sorted(p for p in corpus.iterdir() if p.is_dir()):
        run = subprocess.run(
            [spmdfix, "check", "--output-format", "json", "--no-cache", "--exit-zero", "-q", *extra, str(repo)],
            capture_output=True,
            text=True,
            cwd=corpus,
        )
        if run.returncode != 0:
            sys.exit(f"{repo.name}: spmdfix exited {run.returncode}\n{run.stderr}")
        # (each finding's `url` names the rule's page where spmdfix is installed: not a finding's content)
        out[repo.name] = [{k: v for k, v in f.items() if k != "url"} for f in json.loads(run.stdout or "[]")]
    return out


def stop_reason(message: str) -> str:
    """An SPMD910 message with its quoted expressions (`...`) blanked: the kind of stop, not its place."""
    return re.sub(r"\b\d+\b", "N", re.sub(r"`[^`]*`", "`...`", message))


def unresolved_by_reason(found: dict[str, object], corpus: Path) -> dict[str, list[str]]:
    """{stop reason: ["repo/path:row: message", ...]} over the SPMD910 records of a dump of `corpus`, reasons
    and records sorted."""
    groups: dict[str, list[str]] = {}
    for repo, items in found.items():
        for item in items:
            if item["code"] != UNRESOLVED:
                continue
            where = Path(item["filename"])
            if where.is_relative_to(corpus):
                where = where.relative_to(corpus)
            line = f"{where}:{item['location']['row']}: {item['message']}"
            groups.setdefault(stop_reason(item["message"]), []).append(line)
    return {reason: sorted(lines) for reason, lines in sorted(groups.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("/work/corpus"))
    parser.add_argument("--spmdfix", default=str(Path(sys.executable).with_name("spmdfix")))
    parser.add_argument("--against", type=Path, help="a dump to compare with")
    parser.add_argument("--unresolved", action="store_true", help="with the SPMD910 records, grouped by reason")
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    found = dump(args.corpus.resolve(), args.spmdfix, args.unresolved)
    args.out.write_text(json.dumps(found, indent=1, sort_keys=True))
    counts = {name: sum(1 for f in items if f["code"] != UNRESOLVED) for name, items in found.items()}
    print("findings:", ", ".join(f"{name} {n}" for name, n in counts.items()))
    if args.unresolved:
        records = {name: len(items) - counts[name] for name, items in found.items()}
        print(f"{UNRESOLVED}:", ", ".join(f"{name} {n}" for name, n in records.items()))
        for reason, lines in unresolved_by_reason(found, args.corpus.resolve()).items():
            print(f"\n{len(lines)}  {reason}")
            print("\n".join(f"    {line}" for line in lines))
    if args.against is not None:
        before = json.loads(args.against.read_text())
        differ = [name for name in sorted(set(before) | set(found)) if before.get(name) != found.get(name)]
        print("identical" if not differ else f"DIFFERENT: {', '.join(differ)}")
        sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
