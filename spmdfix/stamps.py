"""Whether a file is still as it was read: the one owner of a file's stat, its racy window and its digest.

Every reader that keeps something derived from a file (the results cache, the directory listings and
pyproject.toml tables it keeps, the project index's texts, the language server's indexes) asks here, as
mypy's `fscache` puts every stat, read and hash behind one object.

A file's *stat key* is the `os.stat` fields that change when its bytes do: size, mtime, ctime, inode,
device (as git's index keys a file). Any write changes the ctime, which no user call can set back. A key
proves nothing while it is *racy*: taken within `RACY_NS` of the last change it shows (mtime or ctime), a
change in the same clock tick keeps every field. So a *stamp* is a stat key with the wall-clock time (ns)
taken just before the stat, and a stamp is *settled* when the file's last change is older than `RACY_NS`
before that time; an unchanged stat key then proves unchanged bytes. A reader that cannot trust a key reads
the bytes again (and compares their SHA-256 digest when it keeps one).

Imports nothing of spmdfix: everything that reads files may use it.
"""

from __future__ import annotations

import os
import stat
import time

from spmdfix.perf import frozen

RACY_NS = 2_000_000_000  # file timestamps come from a coarse clock; 2 s also covers FAT's granularity

StatKey = tuple[int, int, int, int, int]  # (size, mtime ns, ctime ns, inode, device)
Stamp = tuple[StatKey, int]  # a stat key and the wall-clock time (ns) just before it was taken
Seen = tuple["StatKey | None", int]  # a `Stamp` whose key is None when no file was there (`seen`)


def stat_key(st: os.stat_result) -> StatKey:
    """The fields of a stat that change when the file's bytes do: size, mtime, ctime, inode, device."""
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def settled(key: StatKey, taken_ns: int) -> bool:
    """Whether a stat key taken at `taken_ns` (wall clock, ns) proves the bytes unchanged for as long as the
    key stays the same: the last change it shows is older than `RACY_NS` before it was taken."""
    return max(key[1], key[2]) < taken_ns - RACY_NS


def settled_now(key: StatKey) -> bool:
    """`settled` for a key taken just now."""
    return settled(key, time.time_ns())


def stamp_of(path: str) -> tuple[Stamp, bool] | None:
    """The stamp of a path (`os.stat`, following links, and the time just before it) and whether it is a
    directory; None when it does not exist or is neither a regular file nor a directory."""
    taken = time.time_ns()
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    is_dir = stat.S_ISDIR(st.st_mode)
    if not is_dir and not stat.S_ISREG(st.st_mode):
        return None
    return ((st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev), taken), is_dir


def unchanged(path: str, key: StatKey, taken_ns: int) -> bool:
    """Whether the file at `path` is provably as a stamp `(key, taken_ns)` saw it: its stat key now is `key`,
    and the stamp is settled. False when its stat cannot be taken."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    now = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)
    return now == key and max(now[1], now[2]) < taken_ns - RACY_NS


def seen(path: str) -> Seen:
    """The file at `path` as seen now: its stat key (None when it cannot be taken: no file there) and the
    time just before."""
    taken = time.time_ns()
    try:
        return stat_key(os.stat(path)), taken
    except OSError:
        return None, taken


def still(path: str, was: Seen) -> bool:
    """Whether the file at `path` is as `seen` saw it: absent then and now, or the same stat key, taken well
    after the file's last change (settled)."""
    key, taken = was
    if seen(path)[0] != key:
        return False
    return key is None or settled(key, taken)


@frozen(slots=True, repr=False)
class FileStamp:
    """A file's identity when it was read (`read_stamped`): its stat key taken before the read, the
    wall-clock time then (ns), and the SHA-256 of the bytes read. stat is None when the file changed while
    being read (or its stat could not be taken): its bytes are then all that identify it."""

    stat: StatKey | None
    taken_ns: int
    digest: str


def trusted(stamp: FileStamp, now: StatKey) -> bool:
    """Whether a file whose stat key is `now` still holds the bytes `stamp` was taken of: the same key, and
    the stamp settled."""
    if stamp.stat is None or stamp.stat != now:
        return False
    return settled(now, stamp.taken_ns)


def read_stamped(path: str | os.PathLike) -> tuple[bytes, FileStamp]:
    """The bytes of a file and its stamp (the stat before and after the read must agree for the stamp to
    hold a key). Raises OSError."""
    taken = time.time_ns()
    with open(path, "rb") as handle:
        before = os.fstat(handle.fileno())
        raw = handle.read()
        after = os.fstat(handle.fileno())
    key = stat_key(before)
    return raw, FileStamp(key if key == stat_key(after) else None, taken, digest_bytes(raw))


def digest_bytes(raw: bytes) -> str:
    """The SHA-256 hex digest a file's bytes are known by (the results cache's key, the project index's)."""
    import hashlib  # (3-5 ms: not on the start of a run that hashes nothing)

    return hashlib.sha256(raw).hexdigest()


def digest_file(path: str) -> str | None:
    """`digest_bytes` of the file at `path`; None when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return digest_bytes(handle.read())
    except OSError:
        return None
