"""File I/O at the edge: discovery, decoding that keeps every byte, and atomic writes.

A module is read as bytes and decoded by its PEP 263 cookie or BOM (`tokenize.detect_encoding`), with line
endings left as they are; it is written back in the same encoding (BOM included), through a temporary file
in the same directory and `os.replace`, keeping its permissions, and only when the text changed and the
file on disk is still the one that was read. A read-only file is reported, not replaced (`os.replace` would
replace it, ../shared/docs/toolchain-notes.md); a symlink is followed and its target written.
"""

from __future__ import annotations

import io
import os
import stat
import tempfile
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

SKIP_DIRS = frozenset({"__pycache__", "node_modules"})


class FileError(Exception):
    """A file could not be read, decoded or written; the message says why, in plain words."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A decoded module: its path, text, the encoding to write it back with, and the bytes read."""

    path: Path
    text: str
    encoding: str
    raw: bytes


def discover(paths: Iterable[str | os.PathLike]) -> Iterator[Path]:
    """The Python files under `paths`, in sorted order: files as given, directories walked for `*.py`.

    Hidden directories (a leading dot) and `__pycache__` are skipped. Raises `FileError` for a path that
    does not exist.
    """
    for given in paths:
        path = Path(given)
        if path.is_dir():
            yield from _walk(path)
        elif path.exists():
            yield path
        else:
            raise FileError(f"{given}: no such file or directory")


def _walk(root: Path) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS)
        for name in sorted(filenames):
            if name.endswith(".py"):
                yield Path(dirpath) / name


def read_source(path: Path) -> SourceFile:
    """Read and decode one module. Raises `FileError` when it cannot be read or decoded."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise FileError(f"cannot read: {err.strerror or err}") from err
    return decode(path, raw)


def decode(path: Path, raw: bytes) -> SourceFile:
    """Decode module bytes by BOM / PEP 263 cookie (default UTF-8). Raises `FileError` on bad bytes."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as err:
        raise FileError(f"cannot decode: {err}") from err
    try:
        text = raw.decode(encoding)
    except (UnicodeDecodeError, LookupError) as err:
        raise FileError(f"cannot decode as {encoding}: {err}") from err
    if encoding == "utf-8-sig":
        text = text.removeprefix("\ufeff")
    return SourceFile(path, text, encoding, raw)


def encode(source: SourceFile, text: str) -> bytes:
    """The bytes of `text` in the file's own encoding (a BOM kept when the file had one)."""
    return text.encode(source.encoding)


def write_source(source: SourceFile, text: str) -> bool:
    """Atomically replace the file's content with `text`; False when nothing changed.

    Raises `FileError` when the file is read-only, changed on disk since it was read, or the write fails;
    the file is then left as it was.
    """
    data = encode(source, text)
    if data == source.raw:
        return False
    target = Path(os.path.realpath(source.path))
    try:
        st = target.stat()
    except OSError as err:
        raise FileError(f"cannot write: {err.strerror or err}") from err
    if not os.access(target, os.W_OK) or not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise FileError("not written: the file is read-only")
    if target.read_bytes() != source.raw:
        raise FileError("not written: the file changed on disk since it was read")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".spmdfix", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, target)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise FileError(f"cannot write: {err.strerror or err}") from err
    return True
