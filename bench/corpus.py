"""Unpack the benchmark corpus (bench/README.md, "The corpus of real repositories") from git snapshots.

    python bench/corpus.py DIR NAME=GITDIR [NAME=GITDIR ...]

For each NAME=GITDIR (a bare or ordinary git directory holding one of the repositories of `REPOSITORIES`),
writes the tree of the pinned commit (its HEAD when the snapshot lacks that commit, said on stdout) to
DIR/NAME/. A snapshot may lack some large blobs (mirrors leave out files of several MB, Git LFS content):
`git archive` then stops, and the tree is written blob by blob instead, leaving the missing ones out (listed
on stdout; none is a Python file in the pinned commits). A DIR/NAME that already exists is left as it is.
Needs only git and the snapshots: no network.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tarfile
from pathlib import Path

# name -> (GitHub repository, pinned commit): the corpus of issue 13.
REPOSITORIES = {
    "jax": ("jax-ml/jax", "cec06d116c05f0d52adfceee3d3b730fdbcb0ce5"),
    "flax": ("google/flax", "18f8f311c275d57f46d95e41b15aa97b454754c0"),
    "maxtext": ("AI-Hypercomputer/maxtext", "e591f30cbbf217ed67ef71263ec0538239f9c3b8"),
    "axlearn": ("apple/axlearn", "34aed43c1b6e581c4753d06d7cbeedd5010ef26b"),
    "praxis": ("google/praxis", "feeaff19915ca9c3de8b372b7427d15c81f0d757"),
    "levanter": ("stanford-crfm/levanter", "9263f81e8b453241332c2c0b2d2001bfb2d2241c"),
    "haliax": ("stanford-crfm/haliax", "f41e7d40c63dc486b69c5d854270a9158fe3dd39"),
    "jaxpp": ("NVIDIA/jaxpp", "cf9e386248b0550c195d8cbde06d841c196e61f0"),
}


def _git(gitdir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", f"--git-dir={gitdir}", *args], capture_output=True, check=check)


def commit_to_use(gitdir: Path, pinned: str) -> tuple[str, bool]:
    """(commit, pinned?): the pinned commit when the snapshot has it, else its HEAD."""
    if _git(gitdir, "cat-file", "-t", pinned, check=False).stdout.strip() == b"commit":
        return pinned, True
    return _git(gitdir, "rev-parse", "HEAD").stdout.decode().strip(), False


def unpack(gitdir: Path, commit: str, dest: Path) -> list[str]:
    """Write the tree of `commit` to `dest`; the paths of blobs the snapshot lacks (left out)."""
    dest.mkdir(parents=True)
    archive = _git(gitdir, "archive", "--format=tar", commit, check=False)
    if archive.returncode == 0:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(dest, filter="tar")
        return []
    return _unpack_blobs(gitdir, commit, dest)


def _unpack_blobs(gitdir: Path, commit: str, dest: Path) -> list[str]:
    missing = []
    listing = _git(gitdir, "ls-tree", "-r", "-z", "--full-tree", commit).stdout.decode("utf-8", "surrogateescape")
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind != "blob":
            continue  # a submodule: not part of the tree's files
        blob = _git(gitdir, "cat-file", "blob", sha, check=False)
        if blob.returncode != 0:
            missing.append(path)
            continue
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":
            os.symlink(blob.stdout, target)
        else:
            target.write_bytes(blob.stdout)
            if mode == "100755":
                target.chmod(0o755)
    return missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path, help="The corpus directory (DIR/NAME/ per repository).")
    parser.add_argument("snapshots", nargs="+", metavar="NAME=GITDIR", help=f"NAME one of {', '.join(REPOSITORIES)}")
    args = parser.parse_args(argv)
    for item in args.snapshots:
        name, _, gitdir = item.partition("=")
        if name not in REPOSITORIES or not gitdir:
            parser.error(f"{item!r}: expected NAME=GITDIR with NAME one of {', '.join(REPOSITORIES)}")
        dest = args.dir / name
        if dest.exists():
            print(f"{name}: {dest} exists, left as it is")
            continue
        commit, pinned = commit_to_use(Path(gitdir), REPOSITORIES[name][1])
        missing = unpack(Path(gitdir), commit, dest)
        print(f"{name}: {commit[:10]} ({'the pinned commit' if pinned else 'HEAD: the pinned commit is absent'})")
        for path in missing:
            print(f"  left out (not in the snapshot): {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
