"""The project's files as the project index asks for them: the one place the analysis's reads happen.

`spmdfix.analysis.index.ProjectIndex` does no I/O: it is given a `ProjectFiles`, and `DiskFiles` here answers
from the disk. A module is read by `files.source_of` (decoded by its BOM or PEP 263 cookie, cached while its
stat is unchanged), at most `MAX_FILE_BYTES` of it: past that a file is no module the analysis follows. A
notebook (`.ipynb`, at most `files.MAX_BYTES`, the size a check reads: outputs make notebooks large) is read
as the module of its code cells (`notebook.module_text`): the judgement of a cross-module fix searches the
project's notebooks for reads of a mesh too (`project_graph.judged_files`), and names a place in one by its
cell (`place`). Paths are absolute strings; nothing here raises.
"""

from __future__ import annotations

import os
from pathlib import Path

from spmdfix.files import MAX_BYTES, FileError, decode, read_bytes, source_of
from spmdfix.paths import relpath
from spmdfix.stamps import digest_bytes, digest_file

MAX_FILE_BYTES = 2_000_000


class DiskFiles:
    """The file system as it is on disk (`analysis.project_modules.ProjectFiles`)."""

    def read(self, path: str) -> tuple[str, str] | None:
        """(text, SHA-256 of the bytes) of the module file at `path`; None when it is missing, unreadable,
        larger than `MAX_FILE_BYTES` or not decodable. A notebook: the module of its code cells
        (`notebook.module_text`), with the SHA-256 of the notebook's bytes; None when it is not a Python
        notebook spmdfix can read."""
        if path.endswith(".ipynb"):
            return read_notebook(path)
        try:
            if os.stat(path).st_size > MAX_FILE_BYTES:
                return None
        except OSError:
            return None
        source = source_of(path)
        return (source.text, digest_bytes(source.raw)) if source is not None else None

    def place(self, path: str, text: str, line: int) -> tuple[str, int]:
        """How a message names the 1-based `line` of the module text `text` read from `path`: (the file as
        messages show its path, the line); in a notebook, (`nb.ipynb cell N`, the line in that cell)."""
        if path.endswith(".ipynb"):
            from spmdfix.notebook import place

            cell, row = place(text, line)
            return f"{relpath(path)} cell {cell}", row
        return relpath(path), line

    def digest(self, path: str) -> str | None:
        """SHA-256 of the bytes of the file at `path` now, or None when it cannot be read."""
        return digest_file(path)

    def has_file(self, path: str) -> bool:
        """Whether a file (not a directory) is at `path`."""
        return Path(path).is_file()

    def real_path(self, path: str) -> str:
        """`path` with symbolic links resolved and made absolute (it need not exist)."""
        return str(Path(path).resolve())

    def inside(self, path: str, root: str) -> bool:
        """Whether `path`, symbolic links resolved, lies in the directory `root` (a real path)."""
        try:
            Path(path).resolve().relative_to(root)
        except ValueError:
            return False
        return True

    def join(self, base: str, *parts: str) -> str:
        """The path of `parts` below the directory `base`."""
        return str(Path(base, *parts))

    def module_name(self, path: str) -> tuple[str, str, bool]:
        """(dotted module name, the directory it is imported from, whether it is a package's `__init__`) of
        the file at `path`, from the `__init__.py` files of its directories (`pkg/sub/mod.py` ->
        `pkg.sub.mod`)."""
        # (`module_name`'s answer with strings: the index asks it of every module it loads)
        real = os.path.realpath(path)
        directory, file = os.path.split(real)
        is_package = file == "__init__.py"
        parts = [] if is_package else [os.path.splitext(file)[0]]
        while os.path.exists(os.path.join(directory, "__init__.py")) and os.path.dirname(directory) != directory:
            parts.insert(0, os.path.basename(directory))
            directory = os.path.dirname(directory)
        return ".".join(parts), directory, is_package


def read_notebook(path: str) -> tuple[str, str] | None:
    """(the module of its code cells, SHA-256 of the bytes) of the notebook at `path`; None when it cannot be
    read, is larger than `files.MAX_BYTES`, or is not a Python notebook spmdfix can read."""
    from spmdfix.notebook import NotebookError, module_text

    try:
        if os.stat(path).st_size > MAX_BYTES:
            return None
        raw = read_bytes(path)
        return module_text(decode(Path(path), raw).text), digest_bytes(raw)
    except (OSError, FileError, NotebookError):
        return None


def module_name(path: Path) -> tuple[str, Path, bool]:
    """(dotted module name, the directory it is imported from, whether it is a package's `__init__`) of a
    file, from the `__init__.py` files of its directories (`pkg/sub/mod.py` -> `pkg.sub.mod`)."""
    path = path.resolve()
    is_package = path.name == "__init__.py"
    parts = [] if is_package else [path.stem]
    directory = path.parent
    while (directory / "__init__.py").exists() and directory.parent != directory:
        parts.insert(0, directory.name)
        directory = directory.parent
    return ".".join(parts), directory, is_package


DISK = DiskFiles()  # (stateless: one is enough for every index)
