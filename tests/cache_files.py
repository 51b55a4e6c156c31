"""Reading and planting a results cache's entries in tests: the results file with its journal applied
(`cache_file.load_journal`), and a planted set written as the results file with no journal after it."""

from __future__ import annotations

import pickle
from pathlib import Path

from spmdfix.cache import Cache
from spmdfix.cache_file import FORMAT, load_journal


def read_entries(directory: Path) -> dict[str, tuple]:
    """The entries a run with the cache in `directory` loads: the results file, then its journal."""
    cache = Cache(directory)
    fmt, entries = pickle.loads(cache.file.read_bytes())
    assert fmt == FORMAT
    load_journal(cache.journal_file, entries)
    return entries


def plant_entries(directory: Path, entries: dict) -> None:
    """Make `entries` what the cache in `directory` holds: the results file, with no journal after it."""
    cache = Cache(directory)
    cache.file.write_bytes(pickle.dumps((FORMAT, entries)))
    cache.journal_file.unlink(missing_ok=True)
