"""A module's file at the edge: reading and decoding that keep every byte, atomic writes, the project root.

Which files a run reads is `spmdfix.discovery`'s business (with `spmdfix.gitignore`); this module reads one.

A module is read as bytes and decoded by its PEP 263 cookie or BOM (`tokenize.detect_encoding`), with line
endings left as they are; it is written back in the same encoding (BOM included), through a temporary file
in the same directory and `os.replace`, keeping its permissions, and only when the text changed and the
file on disk is still the one that was read, as is every other file the fix was judged against
(`check_as_judged`). A read-only file is reported, not replaced (`os.replace` would replace it: renaming
needs write access to the directory only), and so is a file with other hard links (a rename would leave them
the old text); a symlink is followed and its target written.
"""

from __future__ import annotations

import codecs
import errno
import functools
import io
import os
import re
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from spmdfix.dir_entries import absent, not_a_link
from spmdfix.paths import relpath
from spmdfix.perf import frozen
from spmdfix.stamps import digest_file, settled_now, stat_key

PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", ".git")  # what marks a project's root (`find_project_root`)
MAX_BYTES = 10 * 1024 * 1024
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")


class FileError(Exception):
    """A file could not be read, decoded or written; the message says why, in plain words. `path`: the file,
    where the message does not say which of several (`write_together`). `position`: for bytes that do not
    decode, the 1-based line and column of the first bad byte (the column in characters, as an editor showing
    the line counts them), where SPMD901 is located; None for the file as a whole."""

    def __init__(self, message: str, path: Path | None = None, position: tuple[int, int] | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.position = position


@frozen(slots=True)
class SourceFile:
    """A decoded module: its path, text, the encoding to write it back with, and the bytes read."""

    path: Path
    text: str
    encoding: str
    raw: bytes


def find_project_root(path: Path, cached: bool = False) -> Path:
    """The project root of the file (or directory) at `path`: the one function every front end, the
    results cache and the project index ask (`file_settings.project_root_of` adds `project-root`).

    - the nearest directory at or above `path` holding `pyproject.toml`, `setup.cfg` or `.git`;
    - else, when `path` lies in a package (its directory holds `__init__.py`), the directory the top
      package of that chain is imported from, as Python, ruff and mypy find a package: the directory
      above the highest directory of the unbroken `__init__.py` chain (`pkg/sub/mod.py` -> the
      directory holding `pkg`), so that `from .layers import f` and `from pkg.layers import f` resolve;
    - else the directory of `path` (or `path` itself, a directory named on the command line).

    cached: answer from what this process found before for the same directories (a warm run of the results
    cache asks for hundreds of directories sharing their ancestors; a long-lived process must not)."""
    start = path if path.is_dir() else path.parent
    if cached:
        return Path(root_of_directory(str(start)))
    start = start.resolve()
    for directory in (start, *start.parents):
        if any((directory / marker).exists() for marker in PROJECT_MARKERS):
            return directory
    return package_base(start)


_ROOT_CACHES: list = []  # the caches of answers that depend on where the project markers are (`root_cache`)


def root_cache(maxsize: int):
    """`functools.lru_cache(maxsize)` for a function whose answer depends on where the project markers are
    (`find_project_root`'s `cached` answers): `forget_project_roots` clears every such cache."""

    def decorate(function):
        cached = functools.lru_cache(maxsize=maxsize)(function)
        _ROOT_CACHES.append(cached)
        return cached

    return decorate


def forget_project_roots() -> None:
    """Forget the project roots this process found (`root_cache`): a long-lived process (`check --watch`)
    calls it when a file changed, since a project marker (`PROJECT_MARKERS`) may have been added or removed
    and moved the root of every file below it."""
    for cached in _ROOT_CACHES:
        cached.cache_clear()


@root_cache(maxsize=8192)
def root_of_directory(directory: str) -> str:
    """`find_project_root(Path(directory), cached=True)` of a directory, as a string: once per directory and
    process. Its real path is found from its parent's (`_real_directory`: one `lstat` for each directory
    instead of one for each component of each directory's path; a warm run of the results cache asks for
    the roots of hundreds of directories below a few projects)."""
    if not os.path.isabs(directory) or any(part in (".", "..", "") for part in directory.split("/")[1:]):
        start = str(Path(directory).resolve())  # (not absolute and normal: as `Path.resolve` does it)
    else:
        start = _real_directory(directory)
    marked = _marked_directory(start)
    return marked if marked is not None else str(package_base(Path(start)))


@root_cache(maxsize=8192)
def _real_directory(directory: str) -> str:
    """`os.path.realpath` of the absolute, normal `directory` (no `.`, `..` or empty component), from its
    parent's: the real parent joined with the name, resolved again only where that is a symbolic link."""
    parent = os.path.dirname(directory)
    if parent == directory:
        return directory
    here = os.path.join(_real_directory(parent), os.path.basename(directory))
    if here == directory and not_a_link(directory):
        return here  # (this run's walk entered it from its parent's listing: no `lstat` needed)
    return os.path.realpath(here) if os.path.islink(here) else here


@root_cache(maxsize=8192)
def _marked_directory(directory: str) -> str | None:
    """The nearest directory at or above the real `directory` holding a project marker, or None; once per
    directory and process (its ancestors' answers are shared)."""
    # (`dir_entries.absent`: a marker this run's walk saw missing from the directory needs no `stat`)
    if any(not absent(directory, marker) and os.path.exists(os.path.join(directory, marker)) for marker in PROJECT_MARKERS):
        return directory
    parent = os.path.dirname(directory)
    return None if parent == directory else _marked_directory(parent)


def package_base(directory: Path) -> Path:
    """The directory the top package of the `__init__.py` chain holding `directory` is imported from;
    `directory` itself when it is no package."""
    while (directory / "__init__.py").exists() and directory.parent != directory:
        directory = directory.parent
    return directory


def read_source(path: Path) -> SourceFile:
    """Read and decode one module. Raises `FileError` when it cannot be read or decoded."""
    try:
        raw = read_bytes(path)
    except OSError as err:
        raise FileError(f"cannot read: {err.strerror or err}") from err
    return decode(path, raw)


def read_bytes(path: str | os.PathLike, limit: int | None = None) -> bytes:
    """The bytes of the file at `path`. Raises OSError (also for a file that is not a regular one:
    `not_regular`), and `TooLarge` (its size) when the file holds more than `limit` bytes (None: no limit),
    before reading it.

    One open, one fstat and one read (a second when the file grew since the fstat): half the CPU of
    `Path.read_bytes` plus an `os.stat` for the size, per file of a whole-tree run."""
    # O_NONBLOCK: opening a FIFO without a writer would wait forever; it is refused below (`not_regular`)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        not_regular(st.st_mode)
        size = st.st_size
        if limit is not None and size > limit:
            raise TooLarge(size)
        raw = os.read(fd, size + 1)  # one byte more: a file that grew since is read to its end below
        if len(raw) != size:
            chunks = [raw]
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
            raw = b"".join(chunks)
        return raw
    finally:
        os.close(fd)


_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def not_regular(mode: int) -> None:
    """Raise OSError ("not a regular file: a named pipe (FIFO)", ...) unless `mode` (an `os.stat` mode) is a
    regular file's: a FIFO, a device or a socket named on the command line is refused (SPMD901) instead of
    read, which could block forever or never end."""
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    raise OSError(errno.EINVAL, f"not a regular file: {kind}")


class TooLarge(Exception):
    """A file over the size limit `read_bytes` was given; `size` is its size in bytes."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def plain_ascii(raw: bytes) -> bool:
    """True when `decode` reads `raw` as ASCII text as it is (no byte over 0x7f, no PEP 263 cookie): the
    text is known without decoding it."""
    return raw.isascii() and no_cookie(raw)


def no_cookie(raw: bytes) -> bool:
    """True when the first two lines of `raw` hold no PEP 263 cookie: `decode` then reads the bytes as UTF-8
    (after a BOM or not), and they are its text when they decode so."""
    return b"coding" not in raw[: _end_of_second_line(raw)]


def text_of(path: str) -> str | None:
    """The decoded text of the module at `path` (absolute), as the project index read it: what a finding
    or a related place in that module points into. None when it cannot be read or decoded. Cached as
    `source_of` caches it."""
    found = source_of(path)
    return found.text if found is not None else None


def source_of(path: str) -> SourceFile | None:
    """The module at `path` read and decoded (`read_source`), or None when it cannot be; cached while the
    file's stat key (`stamps.stat_key`: size, mtime, ctime, inode, device) stays the same. A file whose key
    is not settled (changed within `stamps.RACY_NS`) is read again on every call: a rewrite in the same
    clock tick keeps the times, and a long-lived process (the language server) would otherwise go on
    analysing the old text."""
    try:
        key = stat_key(os.stat(path))
    except OSError:
        return None
    if not settled_now(key):
        return _read_source_or_none(path)
    return _source_of(path, key)


@functools.lru_cache(maxsize=64)
def _source_of(path: str, stat: tuple[int, int, int, int, int]) -> SourceFile | None:
    return _read_source_or_none(path)


def _read_source_or_none(path: str) -> SourceFile | None:
    try:
        return read_source(Path(path))
    except FileError:
        return None


def decode(path: Path, raw: bytes) -> SourceFile:
    """Decode module bytes by BOM / PEP 263 cookie (default UTF-8). Raises `FileError` on bad bytes."""
    if plain_ascii(raw):
        # What detect_encoding finds for these bytes (no BOM, no cookie: UTF-8), without its line reading.
        return SourceFile(path, raw.decode("ascii"), "utf-8", raw)
    if no_cookie(raw):
        # What detect_encoding finds without a cookie (UTF-8, "utf-8-sig" after a BOM), without its line
        # reading, for bytes that decode so (a third of a tree's modules are not ASCII); others go on below,
        # which words the error.
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            if raw.startswith(codecs.BOM_UTF8):
                return SourceFile(path, text[1:].removeprefix("\ufeff"), "utf-8-sig", raw)
            return SourceFile(path, text, "utf-8", raw)
    import tokenize  # (most modules are plain ASCII: a run over them does not import it)

    try:
        encoding, first_lines = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as err:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise FileError(*_decode_error(raw, "utf-8", bad, declared=False)) from err
        raise FileError(f"cannot decode: {err}") from err
    declared = encoding != "utf-8" or any(_COOKIE.match(line) for line in first_lines)
    try:
        text = raw.decode(encoding)
    except LookupError as err:
        raise FileError(f"cannot decode: unknown encoding {encoding!r}") from err
    except UnicodeDecodeError as err:
        raise FileError(*_decode_error(raw, encoding, err, declared)) from err
    if encoding == "utf-8-sig":
        text = text.removeprefix("\ufeff")
    return SourceFile(path, text, encoding, raw)


def _end_of_second_line(raw: bytes) -> int:
    """Where PEP 263's two cookie lines end (the whole text when it has fewer)."""
    second = raw.find(b"\n", raw.find(b"\n") + 1)
    return len(raw) if second < 0 or raw.find(b"\n") < 0 else second


def _decode_error(
    raw: bytes, encoding: str, err: UnicodeDecodeError, declared: bool
) -> tuple[str, None, tuple[int, int]]:
    """`FileError`'s arguments for bytes that do not decode: the message (where the first undecodable byte is
    and what would help), no path, and that byte's 1-based line and column. The column counts the characters
    before it on its line (the bytes there decode: the error is the first), as an editor and ruff's columns
    do; for a line of ASCII it is the byte's column."""
    line = raw.count(b"\n", 0, err.start) + 1
    line_start = raw.rfind(b"\n", 0, err.start) + 1
    try:
        column = len(raw[line_start : err.start].decode(encoding)) + 1
    except (UnicodeDecodeError, LookupError):  # (a stateful encoding mid-line: the byte's own column)
        column = err.start - line_start + 1
    where = f"byte 0x{raw[err.start]:02x} at line {line}, column {column}"
    if declared:
        return f"cannot decode as {encoding}: {where} ({err.reason})", None, (line, column)
    message = f"cannot decode as utf-8: {where} is not UTF-8 and the file has no PEP 263 coding cookie"
    return message, None, (line, column)


def encode(source: SourceFile, text: str) -> bytes:
    """The bytes of `text` in the file's own encoding (a BOM kept when the file had one)."""
    return text.encode(source.encoding)


def write_source(source: SourceFile, text: str, rests_on: Iterable[tuple[str, str | None]] = ()) -> bool:
    """Atomically replace the file's content with `text`; False when nothing changed.

    Raises `FileError` when the file is read-only, has other hard links, changed on disk since it was read,
    when a file of `rests_on` changed since the fix was judged against it (`NotAsJudged`), or when the write
    fails; the file is then left as it was. (`write_together` of the one file: the same checks and the same
    write.)
    """
    return bool(write_together([(source, text)], rests_on))


def read_unchanged(path: str | Path, old: str | None) -> SourceFile:
    """The module at `path` as it is on disk now, which must still hold `old` (None: not asked), the text that
    fixes to be written together with others were computed from (a module another file's fix edits). Raises
    `FileError` with the path (`FileError.path`) when it cannot be read or changed since."""
    path = Path(path)
    try:
        found = read_source(path)
    except FileError as err:
        raise FileError(str(err), path=path) from err
    if old is not None and found.text != old:
        raise FileError("not written: the file changed on disk since it was read", path=path)
    return found


def write_together(
    changes: list[tuple[SourceFile, str]], rests_on: Iterable[tuple[str, str | None]] = ()
) -> list[Path]:
    """Write every `(source, text)` of `changes` or none of them: the files a fix across modules edits (the
    vmap's new `spmd_axis_name` in train.py and the mesh's new axis in config.py), where a part written alone
    leaves the program broken. The paths written (those whose text changed), in the order given.

    rests_on: (absolute path, SHA-256 of its bytes, or None for a file absent or unreadable) of every file
    the fixes were judged against (the finding's module, the modules of its chain, what the analysis looked
    for: `Checked.depends`, `CrossModuleFixes.read`), edited or not; each must still hold those bytes.

    First each file is checked as `write_source` checks it (read-only, other hard links, changed on disk
    since it was read) and its new bytes are written to a temporary file beside it and flushed; then every
    file of `rests_on` is hashed again; any failure there removes the temporary files and writes nothing.
    Then each temporary file is renamed over its file; if a rename fails, the files already replaced get
    their bytes as read back (atomically too). Raises `FileError` naming the file that failed
    (`FileError.path`; `NotAsJudged` for a file of `rests_on`) and saying that nothing was written."""
    prepared: list[tuple[SourceFile, Path, str, int]] = []  # (source, target, temporary file, mode)
    try:
        for source, text in changes:
            data = encode(source, text)
            if data == source.raw:
                continue
            target = Path(os.path.realpath(source.path))
            try:
                st = target.stat()
                problem = _read_only(target, st) or _hard_linked(st) or (
                    "not written: the file changed on disk since it was read" if target.read_bytes() != source.raw else None
                )
                if problem:
                    raise FileError(problem, path=target)
                prepared.append((source, target, _temporary_beside(target, data, stat.S_IMODE(st.st_mode)), st.st_mode))
            except OSError as err:
                raise FileError(f"cannot write: {err.strerror or err}", path=target) from err
        if prepared:
            # (last, just before the renames: the files the judgement read, as late as they can be read)
            check_as_judged(rests_on)
    except FileError:
        for _, _, tmp, _ in prepared:
            Path(tmp).unlink(missing_ok=True)
        raise
    done: list[tuple[SourceFile, Path, int]] = []
    for k, (source, target, tmp, mode) in enumerate(prepared):
        try:
            os.replace(tmp, target)
        except OSError as err:
            for _, _, left, _ in prepared[k:]:
                Path(left).unlink(missing_ok=True)
            for old, path, old_mode in done:  # (best effort: the bytes as read, atomically)
                try:
                    _replace_atomically(path, old.raw, stat.S_IMODE(old_mode))
                except OSError:
                    pass
            raise FileError(f"cannot write: {err.strerror or err}", path=target) from err
        done.append((source, target, mode))
    return [target for _, target, _ in done]


class NotAsJudged(FileError):
    """A file a fix was judged against (the finding's module, a module of its chain, one the analysis looked
    for) no longer holds the bytes the judgement read: the fix is not written (`check_as_judged`). The
    message names the file (`path`), which need not be one the fix edits."""

    def __init__(self, path: str) -> None:
        shown = relpath(path).replace(os.sep, "/")
        super().__init__(f"not written: {shown} changed on disk since the fix was judged against it", path=Path(path))


def check_as_judged(rests_on: Iterable[tuple[str, str | None]]) -> None:
    """Raise `NotAsJudged` (with the file, `FileError.path`) unless every file of `rests_on` (absolute path,
    SHA-256 of its bytes or None for a file absent or unreadable) holds those bytes now: a fix judged safe
    against model.py's specs is not written over train.py and config.py once an editor saved another
    model.py (breaker20). Entries that are not absolute paths (the keys of `Checked.depends` such as
    `<importers>`) are passed over."""
    seen: set[str] = set()
    for path, digest in rests_on:
        if path in seen or not os.path.isabs(path):
            continue
        seen.add(path)
        if digest_file(path) != digest:
            raise NotAsJudged(path)


def left_to_check(
    rests_on: Iterable[tuple[str, str | None]], replaced: Mapping[str, str]
) -> list[tuple[str, str | None]]:
    """The entries of `rests_on` (as `check_as_judged` takes them) still to check on disk, once the run wrote
    the files of `replaced` (real path -> SHA-256 of the bytes each write replaced, `write_together` having
    checked them on disk): a file the run wrote holds its new text, so what the judgement read of it is
    compared with the bytes the write replaced. Raises `NotAsJudged` when those differ (the file changed
    between the analysis that judged the fix and the one that fixed it)."""
    out = []
    for path, digest in rests_on:
        if not os.path.isabs(path):
            continue
        before = replaced.get(os.path.realpath(path))
        if before is None:
            out.append((path, digest))
        elif before != digest:
            raise NotAsJudged(path)
    return out


def _hard_linked(st: os.stat_result) -> str | None:
    """Why a file with other hard links is not replaced: a rename puts a new file under this name only, and
    the other names would keep the old text, silently (ruff writes in place and keeps the link; an atomic
    write cannot)."""
    if st.st_nlink > 1:
        others = "the other name" if st.st_nlink == 2 else f"the {st.st_nlink - 1} other names"
        return (
            f"not written: the file has {st.st_nlink} hard links, and replacing it atomically would leave {others} "
            "with the old text (copy it to a file of its own, or make the other names symbolic links, then fix again)"
        )
    return None


def _read_only(target: Path, st: os.stat_result) -> str | None:
    if not os.access(target, os.W_OK) or not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        return "not written: the file is read-only"
    return None


def _replace_atomically(target: Path, data: bytes, mode: int) -> None:
    """Write `data` to a temporary file beside `target`, flushed to disk with permission bits `mode`, then
    rename it over `target`: a reader sees the old bytes or the new ones, never a part. Raises OSError (the
    temporary file is removed, `target` left as it was)."""
    tmp = _temporary_beside(target, data, mode)
    try:
        os.replace(tmp, target)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        raise


def _temporary_beside(target: Path, data: bytes, mode: int) -> str:
    """A temporary file in `target`'s directory holding `data`, flushed to disk, with permission bits `mode`:
    its path. Raises OSError (nothing left behind)."""
    import tempfile  # only when writing

    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".spmdfix", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def write_text_atomically(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` whole or not at all, creating its directory; a file already there is
    replaced (a report, not a source file: no check that it is unchanged). Raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _replace_atomically(path, text.encode("utf-8"), 0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
