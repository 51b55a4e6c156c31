"""Whether a module's text may hold a finding of another module's spmd vmap (a partial run, `spmdfix.reaching`).

Such a finding is located at a shard_map's specs or body, a PartitionSpec, a mesh or a placement: a module
whose text names none of them cannot hold one, and is not looked up in the project's import graph.
"""

from __future__ import annotations

import re

# A shard_map (its specs, its body), a PartitionSpec (`P(...)`, `jax.P`), a mesh, a sharding (a placement).
REACH_WORDS = ("shard_map", "PartitionSpec", "Mesh", "sharding", "P(")
REACH_BYTES = tuple(w.encode() for w in REACH_WORDS)

# How each word is looked for: `in` for the long ones; a regular expression for `Mesh` and `P(`, whose
# search steps through the text to each `M` / `P` (rare letters in code) where `in` tries nearly every
# offset ("h" and "(" are common): twice as fast on the benchmark corpus. `sharding` first: the word most
# texts that hold one of them hold. The answer is `any(word in text for word in REACH_WORDS)`'s.
_MESH, _P_CALL = re.compile("Mesh").search, re.compile(r"P\(").search
_MESH_BYTES, _P_CALL_BYTES = re.compile(b"Mesh").search, re.compile(rb"P\(").search


def may_be_reached(text: str) -> bool:
    """Whether a finding of another module's vmap may be located in a module with this text: it holds one of
    `REACH_WORDS`."""
    return (
        "sharding" in text
        or "PartitionSpec" in text
        or "shard_map" in text
        or _MESH(text) is not None
        or _P_CALL(text) is not None
    )


def may_be_reached_bytes(raw: bytes) -> bool:
    """`may_be_reached` of a module's bytes (any ASCII-compatible encoding), before decoding them. (On a
    whole tree this is asked of most files: each one's bytes are scanned for the words, `may_be_reached`.)"""
    return (
        b"sharding" in raw
        or b"PartitionSpec" in raw
        or b"shard_map" in raw
        or _MESH_BYTES(raw) is not None
        or _P_CALL_BYTES(raw) is not None
    )
