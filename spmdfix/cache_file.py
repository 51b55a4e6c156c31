"""What a results cache file holds, and how it is written and read back without trusting it.

A cache file is a pickle of `(FORMAT, {absolute path: entry})`, each entry `Entry.to_plain`'s tuple: only
tuples, strings, numbers and bytes, which a loader that refuses every class reads (`load_plain`). A result
with nothing to report but its counts (most files) is kept as a short tag (`pack`); any other is pickled on
its own and unpickled only when served, by an unpickler that builds nothing but spmdfix's dataclasses and
enums, paths and plain containers (`unpack`): a cache file planted in a repository cannot run code. Files
are replaced atomically (`write_atomic`: a temporary file and `os.replace`), never written in place, but for
the results' journal (`append_journal`), which a run that changed a few entries appends to instead of writing the
whole file again (`load_journal` reads it back, and stops at a record torn by a crash).
"""

from __future__ import annotations

import dataclasses
import enum
import io
import operator
import os
import pickle
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix.perf import gc_paused, record
from spmdfix.results import Checked, FileResult, Skipped
from spmdfix.stamps import FileStamp

if TYPE_CHECKING:
    from spmdfix.runner import Job

FORMAT = 1  # of the cache file; part of its name
# The tags of an entry's short result (`pack`), part of the cache file's format.
CHECKED_TAG, SKIPPED_TAG = "checked", "skipped"
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This directory is a cache of spmdfix results.\n"


@record
class Entry:
    """One file's cached result: its stamp, the settings key of its job, the (path, digest) of each other
    module its analysis read, and the result as `pack` keeps it: `(tag, parsed, suppressed, reason)` for a
    result with nothing else in it (most files), else the pickled `Checked` result (built only when
    served)."""

    stamp: FileStamp
    settings: str
    depends: tuple[tuple[str, str | None], ...]  # None: the file was absent or unreadable
    outcome: tuple[str, bool, int, str] | bytes

    def to_plain(self) -> tuple:
        """The entry as tuples, strings, numbers and bytes (what the cache file holds)."""
        return (self.stamp.stat, self.stamp.taken_ns, self.stamp.digest, self.settings, self.depends, self.outcome)

    @staticmethod
    def from_plain(item: tuple) -> Entry:
        """Raises ValueError or TypeError for an item that is not `to_plain`'s."""
        stat, taken, digest, settings, depends, outcome = item
        if not (isinstance(digest, str) and isinstance(settings, str) and isinstance(outcome, (tuple, bytes))):
            raise TypeError("not a cache entry")
        stat = tuple(stat) if stat is not None else None
        depends = tuple((str(path), None if dep is None else str(dep)) for path, dep in depends) if depends else ()
        return Entry(FileStamp(stat, int(taken), digest), settings, depends, outcome)


# A `Checked` result's fields that a report shows beyond its counts (parsed, suppressed); what it depends on
# and its stamp are kept beside it in its `Entry`.
_REPORTED = operator.attrgetter(
    *(
        f.name
        for f in dataclasses.fields(Checked)
        if f.name not in ("path", "display", "parsed", "suppressed", "depends", "stamp")
    )
)
_NOTHING_REPORTED = _REPORTED(Checked(Path(), ""))


def pack(result: Checked | Skipped) -> tuple[str, bool, int, str] | bytes:
    """A result as its entry keeps it: `(tag, parsed, suppressed, reason)` for a `Skipped` one and for a
    `Checked` one with nothing to report but its counts (most files), else the pickled result without its
    stamp (the entry holds it)."""
    if result.__class__ is Skipped:
        return (SKIPPED_TAG, False, 0, result.reason)  # type: ignore[union-attr]
    if _REPORTED(result) == _NOTHING_REPORTED:
        return (CHECKED_TAG, result.parsed, result.suppressed, "")
    return pickle.dumps(dataclasses.replace(result, stamp=None), protocol=pickle.HIGHEST_PROTOCOL)


def unpack(packed: tuple[str, bool, int, str] | bytes, job: Job) -> FileResult | None:
    """The result of `job` an entry holds (its path and display as this run spells them); None when it
    cannot be read back."""
    if isinstance(packed, tuple):
        tag, parsed, suppressed, reason = packed
        if tag == CHECKED_TAG:
            if not (parsed or suppressed):  # most files: the defaults (keywords cost a warm run)
                return Checked(job.path, job.display)
            return Checked(job.path, job.display, parsed=parsed, suppressed=suppressed)
        return Skipped(job.path, job.display, reason) if tag == SKIPPED_TAG else None
    try:
        result = _Unpickler(io.BytesIO(packed)).load()
    except Exception:  # noqa: BLE001 - damage or forgery: computed again
        return None
    if not isinstance(result, Checked):  # (the only result `pack` pickles)
        return None
    source = result.source
    if source is not None and source.path != job.path:
        source = dataclasses.replace(source, path=job.path)
    return dataclasses.replace(result, path=job.path, display=job.display, source=source)


def mark(directory: Path) -> None:
    """The cache directory's `.gitignore` (everything) and `CACHEDIR.TAG` (backup tools skip it)."""
    for name, text in ((".gitignore", "# Created by spmdfix automatically.\n*\n"), ("CACHEDIR.TAG", _TAG)):
        path = directory / name
        if not path.exists():
            write_atomic(path, text.encode())


def write_atomic(path: Path, data: bytes) -> None:
    """Replace the file at `path` with `data` at once (a temporary file beside it, then `os.replace`): a
    reader sees the old file or the new one, never a torn one. Raises what the write raises (OSError), with the
    temporary file removed."""
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)  # mkstemp's 0o600 would keep the cache from a team sharing the tree
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _Unpickler(pickle.Unpickler):
    """Builds only spmdfix's dataclasses and enums, paths and plain containers (pickle's "restricting
    globals"): a cache file planted in a repository cannot run code."""

    def find_class(self, module: str, name: str) -> object:
        if (module, name) in _ALLOWED_OTHER:
            return super().find_class(module, name)
        if module == "spmdfix" or module.startswith("spmdfix."):
            found = super().find_class(module, name)
            if isinstance(found, type) and (dataclasses.is_dataclass(found) or issubclass(found, enum.Enum)):
                return found
        raise pickle.UnpicklingError(f"not in a spmdfix cache: {module}.{name}")


_ALLOWED_OTHER = frozenset(
    {
        ("pathlib", "PosixPath"),
        ("pathlib", "WindowsPath"),
        ("pathlib", "PurePosixPath"),
        ("pathlib", "PureWindowsPath"),
        ("builtins", "frozenset"),
        ("builtins", "set"),
        ("builtins", "slice"),
        ("copyreg", "_reconstructor"),
        ("builtins", "object"),
    }
)


def load_plain(file: Path) -> dict[str, tuple]:
    """The entries of a cache file, as `Entry.to_plain` tuples; empty when it is missing, damaged or not a
    cache. The file holds only tuples, strings, numbers and bytes, so the loader refuses every class
    (outcomes are unpickled one by one, and only when served, by `_Unpickler`)."""
    try:
        data = file.read_bytes()
    except OSError:
        return {}
    try:
        with gc_paused():  # thousands of tuples and no cycle: the collector's passes during the load are waste
            found = _PlainUnpickler(io.BytesIO(data)).load()
        if not (isinstance(found, tuple) and len(found) == 2 and found[0] == FORMAT and isinstance(found[1], dict)):
            return {}
        return found[1]
    except Exception:  # noqa: BLE001 - any damage or forgery reads as an empty cache
        return {}


def append_journal(file: Path, changes: dict[str, tuple | None]) -> None:
    """Append one record, `(FORMAT, {absolute path: entry tuple, or None to drop the path's entry})`, to the
    journal `file` (created when missing) in one `write` of an `O_APPEND` descriptor: records appended by runs
    at the same time do not interleave. A record torn by a crash or a full disk ends what `load_journal`
    reads. Raises OSError when the file cannot be opened or written."""
    data = pickle.dumps((FORMAT, changes), protocol=pickle.HIGHEST_PROTOCOL)
    fd = os.open(file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def load_journal(file: Path, into: dict[str, tuple]) -> tuple[int, bool]:
    """Apply the journal `file`'s records in order to `into` (the entries of the results file it follows:
    an entry replaced, or dropped for None). Returns (how many changes it read, whether it ended on a record
    it could not read: torn by a crash, or not a journal). A missing file reads as no record. The records
    hold only tuples, strings, numbers and bytes, read by the loader that refuses every class."""
    try:
        data = file.read_bytes()
    except OSError:
        return 0, False
    stream, count = io.BytesIO(data), 0
    with gc_paused():
        while stream.tell() < len(data):
            try:
                found = _PlainUnpickler(stream).load()
            except Exception:  # noqa: BLE001 - a torn or forged record: what follows it is not read
                return count, True
            if not (isinstance(found, tuple) and len(found) == 2 and found[0] == FORMAT and isinstance(found[1], dict)):
                return count, True
            for path, entry in found[1].items():
                if entry is None:
                    into.pop(path, None)
                else:
                    into[path] = entry
            count += len(found[1])
    return count, False


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> object:
        raise pickle.UnpicklingError(f"not in a spmdfix cache file: {module}.{name}")
