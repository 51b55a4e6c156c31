"""Paths as messages show them: relative to the working directory when below it.

A base module (it imports nothing of spmdfix): the analysis names another module of the project in its
messages (`the mesh is also read by ... (pkg/reader.py line 3)`) and the report names the file of a
finding's span; both show the path the same way.
"""

from __future__ import annotations

import functools
import os


def relpath(path: str, start: str | None = None) -> str:
    """`path` relative to `start` (the working directory) when below it, else as given (for messages)."""
    cwd = os.getcwd()
    return _relative(path, start or cwd, cwd)


@functools.lru_cache(maxsize=4096)
def _relative(path: str, start: str, cwd: str) -> str:
    """`relpath` in the working directory `cwd` (what `os.path.relpath` reads a relative path against), kept:
    the judgement of a fix across modules names the module of each use it finds, hundreds per analysis."""
    try:
        rel = os.path.relpath(path, start)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel
