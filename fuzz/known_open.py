"""Violation kinds the fuzzer finds on main that are open work of issue 10, in one place.

Each entry names the violation key (fuzz/classify.py), the features a program must have for the entry to
cover it (so an entry never excuses a kind in general), an example seed of `fuzz/run.py` and the issue item it
belongs to. When the fix of an item lands, its entries are deleted; tests/test_fuzz.py fails on any violation
no entry covers.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from fuzz.classify import Violation


@dataclass(frozen=True)
class KnownOpen:
    """A violation kind left open on purpose: `key` as classify names it (an fnmatch pattern), `when` feature ->
    allowed values (every feature listed must have one of them)."""

    key: str
    when: dict
    seed: int
    item: str

    def covers(self, violation: Violation, features: dict) -> bool:
        if not fnmatch.fnmatchcase(violation.key, self.key):
            return False
        return all(features.get(name) in values for name, values in self.when.items())


_EXPLICIT = ("make_mesh", "make_mesh_explicit")

KNOWN_OPEN: tuple[KnownOpen, ...] = (
    KnownOpen("finding:missed:*", {"consts": ("spmd_tuple",)}, 25,
              "issue 10, found by generated programs: axis names in a tuple holding a constant "
              "(X = 'x'; spmd_axis_name=(X,)) are not resolved"),
    KnownOpen("finding:missed:should be of type `Manual`", {"axis_names": ("spec_only",)}, 24,
              "issue 10, new kind (fuzzer): a partial-manual shard_map whose axis_names lacks the spmd axis "
              "fails under jit (H4) with no finding when the spmd axis is in no spec"),
    KnownOpen("safe-fix:strip:clean-but-fails", {"spmd": ("none",), "mesh_spelling": _EXPLICIT,
                                                 "placement": ("a0", "a0_a1")}, 17,
              "issue 10 kind 3: SPMD006 strip on an Explicit mesh still fails (1-D mesh, or batch placed P('x', 'y'))"),
    KnownOpen("auto-fix:clean-but-fails", {"spmd": ("none",), "mesh_spelling": _EXPLICIT,
                                           "placement": ("a0", "a0_a1")}, 17,
              "issue 10 kind 3: SPMD006 strip on an Explicit mesh still fails (1-D mesh, or batch placed P('x', 'y'))"),
)


def known_entry(violation: Violation, features: dict) -> KnownOpen | None:
    """The entry of KNOWN_OPEN covering this violation of a program with these features, or None."""
    for entry in KNOWN_OPEN:
        if entry.covers(violation, features):
            return entry
    return None
