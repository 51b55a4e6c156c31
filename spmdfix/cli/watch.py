"""`check --watch`: check again whenever a file the check depends on changes (ruff's `--watch`).

Changes are seen by polling stamps, not by file-system events: every `POLL_S` seconds, discovery runs again
(the same walk as the check, with its excludes and `.gitignore`) and each file found is stat'ed, with the
`spmdfix.toml`, `pyproject.toml` and `.gitignore` of every directory holding one and of the directories
above, and whether a `setup.cfg` or `.git` is there (`snapshot`). A change of any of them (a file edited, added, removed or renamed; a setting or an
ignore rule changed) starts the next check. Why not an event library (watchdog, watchfiles):

- what decides whether a change matters is spmdfix's discovery (suffixes, excludes, nested `.gitignore`
  files, settings files up the tree): an event stream would be filtered by a copy of those rules and still
  need a walk to find the files a new setting or ignore rule brings in; the poll asks discovery itself;
- no dependency for a convenience mode, and the same behaviour on every platform and file system
  (inotify does not see changes made on the other side of some network and container mounts, and has a
  per-user watch limit a large tree can exhaust);
- the cost stays small: on the eight-repository benchmark corpus (3,330 files found, 4,575 stamps) one
  snapshot took 0.12 s of CPU (the shared machine at load 4), and the wait between polls grows with it
  (`next_wait`) so that watching spends at most about a fifth of one core while nothing changes; on a
  project of a few hundred files a snapshot takes milliseconds and a change is seen within `POLL_S`.

The snapshot is taken before each check, so a change made while the check runs starts another one; a check
with `--fix` that writes files therefore runs once more, and finds nothing to write.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime

import click

from spmdfix.config import CONFIG_NAME, PYPROJECT
from spmdfix.files import PROJECT_MARKERS
from spmdfix.gitignore import GITIGNORE
from spmdfix.stamps import StatKey, seen

POLL_S = 0.5  # the shortest wait between two snapshots
_WATCHED_NAMES = (CONFIG_NAME, PYPROJECT, GITIGNORE)
# The other project markers (`files.find_project_root`): only whether they are there moves a root (a `.git`
# directory's own stamp changes with every commit).
_MARKERS = tuple(name for name in PROJECT_MARKERS if name not in _WATCHED_NAMES)
_PRESENT: StatKey = (0, 0, 0, 0, 0)  # the stamp of a marker that is there
_CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # what ruff writes to clear the terminal before each check

Stamps = dict[str, StatKey | None]


def stamp(path: str) -> StatKey | None:
    """The stat key of the file at `path` (`stamps.stat_key`: size, mtime, ctime, inode, device, following
    links), as every other reader of spmdfix keys a file; None when there is none."""
    try:
        return seen(path)[0]
    except ValueError:  # (a path os.stat refuses, holding a NUL)
        return None


def snapshot(files: list[str], named: list[str], config_file: str | None) -> Stamps:
    """The stamps a watch compares: each file discovery found (absolute paths), and the settings and ignore
    files (present or not) of every directory holding one, of the directories `named` on the command
    line, and of every directory above them, with whether the other project markers (`setup.cfg`, `.git`)
    are there (adding one moves the project root); and the `--config` file."""
    stamps: Stamps = {path: stamp(path) for path in files}
    directories: set[str] = set()
    for start in {os.path.dirname(path) for path in files} | set(named):
        current = start
        while current not in directories:
            directories.add(current)
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
    for directory in directories:
        for name in _WATCHED_NAMES:
            path = os.path.join(directory, name)
            stamps[path] = stamp(path)
        for name in _MARKERS:
            path = os.path.join(directory, name)
            stamps[path] = _PRESENT if os.path.exists(path) else None
    if config_file is not None:
        stamps[config_file] = stamp(config_file)
    return stamps


def next_wait(snapshot_s: float) -> float:
    """How long to wait before the next snapshot: `POLL_S`, or five times what the last one took, so that
    polling a large tree costs at most about a fifth of a core."""
    return max(POLL_S, 5 * snapshot_s)


def watch_checks(
    check: Callable[[], object], take: Callable[[], Stamps], sleep: Callable[[float], None] = time.sleep
) -> None:
    """Run `check` (which prints its report), then again each time `take()` (a `snapshot`) differs from
    the one taken before the last check; until interrupted (Ctrl-C ends it, exit code 0, as ruff's).
    A usage or configuration error of one check is printed and the watch goes on: the next change may fix
    it."""
    _interruptible()
    clear = _CLEAR if sys.stdout.isatty() else ""  # (ruff clears a pipe too: a log gets escape codes)
    _say(f"{clear}[{_now()}] Starting spmdfix in watch mode...\n")
    try:
        while True:
            before = _taken(take)
            try:
                check()
            except click.ClickException as err:
                err.show()
            _say(f"[{_now()}] Watching for file changes.\n")
            while True:
                started = time.perf_counter()
                now = _taken(take)
                if now != before:
                    break
                sleep(next_wait(time.perf_counter() - started))
            _say(f"{clear}[{_now()}] File change detected...\n")
    except KeyboardInterrupt:
        return


def _interruptible() -> None:
    """Make Ctrl-C (SIGINT) end the watch whatever the process inherited: a process started in the background
    of a non-interactive shell, or by a parent that ignores or blocks SIGINT, inherits that, and Python then
    raises no KeyboardInterrupt. Watch mode runs until Ctrl-C, so it takes SIGINT back."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        return  # (signal handlers can be set from the main thread only: a test driving `watch_checks`)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _taken(take: Callable[[], Stamps]) -> Stamps | str:
    """A snapshot, or the message of the usage error that stopped it (a path given that was removed): a
    change all the same once the path is back."""
    try:
        return take()
    except click.ClickException as err:
        return err.format_message()


def _now() -> str:
    return datetime.now().strftime("%H:%M:%S")


def _say(text: str) -> None:
    click.echo(text, nl=False)
    sys.stdout.flush()  # a pipe is block-buffered: the reader sees each check as it ends
