"""Whether a module's text may hold a finding of another module's spmd vmap (a partial run, `spmdfix.reaching`).

Such a finding is located at a shard_map's specs or body, a PartitionSpec, a mesh or a placement: a module
whose text names none of them cannot hold one, and is not looked up in the project's import graph.
"""

from __future__ import annotations

# A shard_map (its specs, its body), a PartitionSpec (`P(...)`, `jax.P`), a mesh, a sharding (a placement).
REACH_WORDS = ("shard_map", "PartitionSpec", "Mesh", "sharding", "P(")
REACH_BYTES = tuple(w.encode() for w in REACH_WORDS)


def may_be_reached(text: str) -> bool:
    """Whether a finding of another module's vmap may be located in a module with this text."""
    return any(word in text for word in REACH_WORDS)


def may_be_reached_bytes(raw: bytes) -> bool:
    """`may_be_reached` of a module's bytes (any ASCII-compatible encoding), before decoding them."""
    return any(word in raw for word in REACH_BYTES)
