"""What an analysis result rests on beyond the modules it read: the project's answers, as keys and digests.

A fix judged against every importer of a module, or a value trusted because no module of the project writes
its attribute, is right only while those answers hold. The analysis records each answer it was given in
`Checked.depends` under one of the keys below (followed by a module's absolute path or a word) with the
digest of the answer; the results cache (`cache_keys.importers_of_state`, `holding_state`) asks the project
again and compares digests. This module is a leaf: a warm run checks the digests without importing the
analysis.
"""

from __future__ import annotations

from collections.abc import Mapping

# (`perf.state_digest`, not hashlib: a warm run would load OpenSSL for these two digests alone.)
from spmdfix.perf import state_digest

# A result's dependency on who imports a module (this + its absolute path, with `importers_digest` of the
# answer): a fix judged in a module's importers is judged again when one starts or stops importing it.
IMPORTERS_OF_KEY = "<importers of>"
# A result's dependency on which modules of the project hold a word (this + the word, with `holding_digest` of
# the answer): a value trusted because no module writes its attribute is judged again when one starts to.
HOLDING_KEY = "<holding>"


def holding_digest(answer: tuple[tuple[str, str], ...] | None) -> str:
    """A digest of a `Holding` answer ((absolute path, SHA-256 of the bytes) of each module holding a word;
    None: not known): which modules hold the word, and their bytes (a write added to a module that held the
    word already changes it)."""
    if answer is None:
        return "unknown"
    return state_digest(repr(sorted(answer)).encode())


def importers_digest(answer: Mapping[str, frozenset[str]] | None) -> str:
    """A digest of who imports a module (an `Importers` answer: importer path -> names; None when not known)."""
    if answer is None:
        return "unknown"
    listed = sorted((path, sorted(names)) for path, names in answer.items())
    return state_digest(repr(listed).encode())
