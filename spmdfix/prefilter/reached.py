"""Whether a module's text may hold a finding of another module's spmd vmap (a partial run, `spmdfix.reaching`).

Such a finding is located at a shard_map's specs or body, a PartitionSpec, a mesh or a placement: a module
whose text names none of them cannot hold one, and is not looked up in the project's import graph.

An SPMD910 record of another module may also lie in a module that names none of them: `class Trainer(Base)`
applying `self.vec(step)`, the vmap factory a base class of another module assigns (issue 22: the analysis of
the base class's module records it, `analysis.inherited_factories`). `may_apply_inherited` says whether a text
may hold such an application: a class statement with a base, and a call `self.NAME(...)` of a name the text
neither defines (`def NAME`) nor assigns (`self.NAME = ...`); its text form also asks for an import that may
name a module of the project (`bindings.imports_project`). On the benchmark corpus 467 of the 3,181 modules
that neither hold a vmap nor name a reach word pass it; a partial run of one of them analyses the modules of
the project it imports whose text may hold a vmap (`project_graph.ProjectGraph.imported_candidates`).
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


_CLASS_WITH_BASE = re.compile(r"^[ \t]*class\s+\w+\s*\(\s*[A-Za-z_]", re.M)
_SELF_CALL = re.compile(r"\bself\s*\.\s*(\w+)\s*\(")
_DEFS = re.compile(r"\bdef\s+(\w+)")
_SELF_ASSIGNS = re.compile(r"\bself\s*\.\s*(\w+)\s*(?::[^=\n]*)?=(?!=)")
_CLASS_WITH_BASE_BYTES = re.compile(_CLASS_WITH_BASE.pattern.encode(), re.M)
_SELF_CALL_BYTES = re.compile(_SELF_CALL.pattern.encode())
_DEFS_BYTES = re.compile(_DEFS.pattern.encode())
_SELF_ASSIGNS_BYTES = re.compile(_SELF_ASSIGNS.pattern.encode())


def may_apply_inherited(text: str) -> bool:
    """Whether a module with this text may apply, through `self`, an attribute a base class of another module of
    the project assigns (see the module doc): a class with a base, a `self.NAME(...)` call of a name it neither
    defines nor assigns, and an import that may name a module of the project."""
    from spmdfix.prefilter.bindings import imports_project

    if _CLASS_WITH_BASE.search(text) is None:
        return False
    called = set(_SELF_CALL.findall(text))
    if not called or not called - set(_DEFS.findall(text)) - set(_SELF_ASSIGNS.findall(text)):
        return False
    return imports_project(text, code_only=True)


def may_apply_inherited_bytes(raw: bytes) -> bool:
    """`may_apply_inherited` of a module's bytes (any ASCII-compatible encoding) without the import's test: True
    when the text may pass it (the decoded text is asked next)."""
    if _CLASS_WITH_BASE_BYTES.search(raw) is None:
        return False
    called = set(_SELF_CALL_BYTES.findall(raw))
    return bool(called and called - set(_DEFS_BYTES.findall(raw)) - set(_SELF_ASSIGNS_BYTES.findall(raw)))
