"""Paths as messages show them: relative to the working directory when below it.

A base module (it imports nothing of spmdfix): the analysis names another module of the project in its
messages (`the mesh is also read by ... (pkg/reader.py line 3)`) and the report names the file of a
finding's span; both show the path the same way.
"""

from __future__ import annotations

import os


def relpath(path: str, start: str | None = None) -> str:
    """`path` relative to `start` (the working directory) when below it, else as given (for messages)."""
    try:
        rel = os.path.relpath(path, start or os.getcwd())
    except ValueError:
        return path
    return path if rel.startswith("..") else rel
