"""The textual prefilter: decide from the raw text whether a module can hold a finding at all.

Parsing is the cost of a whole-codebase run; most files of a codebase cannot hold a collision. A finding
needs a vmap and a shard_map that resolve, through this module's own imports and attribute chains, to
JAX's names (`spmdfix.scopes.ModuleIndex.qualname`). Every such resolution ends in an identifier written in
the module text, `vmap` or `shard_map` (an `import`, a `from ... import ... as ...`, or an attribute such as
`jax.vmap`), so a module whose text lacks either word cannot hold a finding. This holds for every form the
detector supports, including a positional spmd_axis_name (which has no keyword text): the test
`tests/test_prefilter.py` runs the detector on every golden case and checks that no file with a finding is
dropped.
"""

from __future__ import annotations

REQUIRED_WORDS = ("vmap", "shard_map")


def may_have_findings(source: str) -> bool:
    """True unless the text proves the module cannot hold a finding. Never raises."""
    return all(word in source for word in REQUIRED_WORDS)
