"""Violation kinds the fuzzer finds on main that are open work of issue 10, in one place.

Each entry names the violation key (fuzz/classify.py), the features a program must have for the entry to
cover it (so an entry never excuses a kind in general), an example seed of `fuzz/run.py` and the issue item it
belongs to. When the fix of an item lands, its entries are deleted; tests/test_fuzz.py fails on any violation
no entry covers.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from fuzz import gen
from fuzz.classify import Violation


@dataclass(frozen=True)
class KnownOpen:
    """A violation kind left open on purpose: `key` as classify names it (an fnmatch pattern), `when` feature ->
    allowed values (every feature listed must have one of them)."""

    key: str
    when: dict
    seed: int
    item: str
    remaining: str = ""  # when given: a rule code check must still report on the fixed output

    def covers(self, violation: Violation, features: dict) -> bool:
        if not fnmatch.fnmatchcase(violation.key, self.key):
            return False
        if self.remaining and self.remaining not in violation.remaining:
            return False
        return all(features.get(name) in values for name, values in self.when.items())


_EXPLICIT = ("make_mesh", "make_mesh_explicit")

KNOWN_OPEN: tuple[KnownOpen, ...] = ()


def known_entry(violation: Violation, features: dict) -> KnownOpen | None:
    """The entry of KNOWN_OPEN covering this violation of a program with these features, or None."""
    for entry in KNOWN_OPEN:
        if entry.covers(violation, features):
            return entry
    return None
