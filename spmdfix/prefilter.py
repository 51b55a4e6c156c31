"""The textual prefilter: decide from the raw text whether a module can hold a finding at all.

Parsing is the cost of a whole-codebase run; most files of a codebase cannot hold a collision. A finding
needs a vmap and a shard_map or a with_sharding_constraint that resolve, through this module's own imports
and attribute chains, to JAX's (or flax's) names (`spmdfix.scopes.ModuleIndex.qualname`). Every such
resolution ends in an identifier written in the module text (`vmap`, `shard_map`, `with_sharding_constraint`,
in an `import`, a `from ... import ... as ...`, or an attribute such as `jax.vmap`), so a module whose text
lacks `vmap`, or lacks both of the others, cannot hold a finding. This holds for every form the
detector supports, including a positional spmd_axis_name (which has no keyword text): the test
`tests/test_prefilter.py` runs the detector on every golden case and checks that no file with a finding is
dropped.
"""

from __future__ import annotations

def may_have_findings(source: str) -> bool:
    """True unless the text proves the module cannot hold a finding. Never raises."""
    return "vmap" in source and ("shard_map" in source or "with_sharding_constraint" in source)
