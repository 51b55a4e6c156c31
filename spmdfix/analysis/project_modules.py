"""What the project index (`analysis.index`) is given and what it keeps of each module it parses.

Given: `ProjectFiles`, what it asks of the file system (the edge implements it: `spmdfix.project_files.DiskFiles`
reads the disk), so that the analysis does no I/O; `Analyse`, the factory of a module's model, and
`AnalysedModule`, what the index reads of that model (its scopes). Kept: a `ModuleSummary` (plain, picklable
data: names, path, digest, re-exports, definitions) and the model, together a `LoadedModule`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from spmdfix.analysis.index import ProjectLink
    from spmdfix.analysis.scopes import ModuleIndex


class ProjectFiles(Protocol):
    """What the index asks of the file system: the edge implements it (`spmdfix.project_files.DiskFiles`), so
    the index itself does no I/O. Paths are absolute, as strings; none of these raises."""

    def read(self, path: str) -> tuple[str, str] | None:
        """(text, SHA-256 of the bytes) of the module file at `path`; None when it cannot be read or decoded
        (or is too large to be a module the analysis reads)."""

    def digest(self, path: str) -> str | None:
        """SHA-256 of the bytes of the file at `path` now, or None when it cannot be read."""

    def has_file(self, path: str) -> bool:
        """Whether a file (not a directory) is at `path`."""

    def real_path(self, path: str) -> str:
        """`path` with symbolic links resolved and made absolute (it need not exist)."""

    def inside(self, path: str, root: str) -> bool:
        """Whether `path`, symbolic links resolved, lies in the directory `root` (a real path)."""

    def join(self, base: str, *parts: str) -> str:
        """The path of `parts` below the directory `base`."""

    def module_name(self, path: str) -> tuple[str, str, bool]:
        """(dotted module name, the directory it is imported from, whether it is a package's `__init__`) of
        the file at `path`, from the `__init__.py` files of its directories (`pkg/sub/mod.py` ->
        `pkg.sub.mod`)."""

    def place(self, path: str, text: str, line: int) -> tuple[str, int]:
        """How a message names the 1-based `line` of the module text `text` that `read` gave for `path`: (the
        file as messages show its path, the line); in a notebook, its cell and the line in that cell."""


class AnalysedModule(Protocol):
    """What the index reads of a module's model (`module_model.ModuleModel`): its scopes."""

    ix: ModuleIndex


# The factory of a loaded module's model: (source, tree, path, package, the module's view of the index).
Analyse = Callable[[str, ast.Module, str, "str | None", "ProjectLink"], AnalysedModule]


# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@dataclass(slots=True, eq=False, repr=False)
class ModuleSummary:
    """One parsed module of the project, as plain data (picklable).

    module: dotted name; path: absolute path; digest: SHA-256 of the file's bytes; exports: each name the
    module binds by import (re-exports), to the absolute qualified name it stands for; definitions: names of
    its top-level functions and classes.
    """

    module: str
    path: str
    digest: str
    is_package: bool
    exports: dict[str, str]
    definitions: frozenset[str]


@dataclass(slots=True, eq=False, repr=False)
class LoadedModule:
    """A parsed module of the project: its summary and its model (what `ProjectIndex(analyse=...)` built: a
    `module_model.ModuleModel`, which also keeps the summaries of its functions)."""

    summary: ModuleSummary
    model: AnalysedModule
