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


# The patterns of `may_apply_inherited`. Each starts with a word (`class`, `self`, `def`), so that a search steps
# to that word's occurrences (the engine's literal-prefix scan); where the word must start a word (`\\b`) or a
# line (`^`), the match is checked afterwards (`_starting_words`, `_class_with_base`): written with the
# assertion first, each search tried every offset, and the bytes test took 334 ms of CPU over the benchmark
# corpus' 2,259 modules that name no reach word (130 ms so, with the same answers).
_CLASS_WITH_BASE = re.compile(r"class[ \t]+\w+[ \t]*\(\s*[A-Za-z_]")
_SELF_CALL = re.compile(r"self\s*\.\s*(\w+)\s*\(")
_DEFS = re.compile(r"\bdef\s+(\w+)")
_SELF_ASSIGNS = re.compile(r"self\s*\.\s*(\w+)\s*(?::[^=\n]*)?=(?!=)")
_CLASS_WITH_BASE_BYTES = re.compile(_CLASS_WITH_BASE.pattern.encode())
_SELF_CALL_BYTES = re.compile(_SELF_CALL.pattern.encode())
_DEFS_BYTES = re.compile(_DEFS.pattern.encode())
_SELF_ASSIGNS_BYTES = re.compile(_SELF_ASSIGNS.pattern.encode())
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_WORD_BYTES = frozenset(map(ord, _WORD_CHARS))


def _starting_words(pattern: re.Pattern, text):
    """The first group of each match of `pattern` in `text` (str or bytes) not preceded by a word character."""
    word = _WORD_CHARS if isinstance(text, str) else _WORD_BYTES
    return {m.group(1) for m in pattern.finditer(text) if m.start() == 0 or text[m.start() - 1] not in word}


def _class_with_base(pattern: re.Pattern, text) -> bool:
    """Whether a match of `pattern` (`class Name(Base`) in `text` is preceded on its line by blanks only."""
    newline, blanks = ("\n", " \t") if isinstance(text, str) else (b"\n", b" \t")
    for m in pattern.finditer(text):
        line = text.rfind(newline, 0, m.start()) + 1
        if not text[line : m.start()].strip(blanks):
            return True
    return False


def _applies_undefined_self_call(text, cls, call, assigns, defs) -> bool:
    """The shared test of `may_apply_inherited` and its bytes form, with the patterns of `text`'s type."""
    if not _class_with_base(cls, text):
        return False
    called = _starting_words(call, text)
    if called:
        called -= _starting_words(assigns, text)
    return bool(called) and bool(called - set(defs.findall(text)))


def may_apply_inherited(text: str) -> bool:
    """Whether a module with this text may apply, through `self`, an attribute a base class of another module of
    the project assigns (see the module doc): a class with a base, a `self.NAME(...)` call of a name it neither
    defines nor assigns, and an import that may name a module of the project."""
    from spmdfix.prefilter.bindings import imports_project

    if not _applies_undefined_self_call(text, _CLASS_WITH_BASE, _SELF_CALL, _SELF_ASSIGNS, _DEFS):
        return False
    return imports_project(text, code_only=True)


def may_apply_inherited_bytes(raw: bytes) -> bool:
    """`may_apply_inherited` of a module's bytes (any ASCII-compatible encoding) without the import's test: True
    when the text may pass it (the decoded text is asked next)."""
    return _applies_undefined_self_call(raw, _CLASS_WITH_BASE_BYTES, _SELF_CALL_BYTES, _SELF_ASSIGNS_BYTES, _DEFS_BYTES)


# A place of another module's chain (`reaching.places_in`): a call in a function (`def`, `lambda`: the
# vmapped function is traced through it), or a name bound from a module of the project (a `partial` of an
# imported layer, a `jit` of it, applied at module level).
_CHAIN_WORDS = re.compile(r"\b(?:def|lambda)\b")
_CHAIN_WORDS_BYTES = re.compile(_CHAIN_WORDS.pattern.encode())


def may_be_on_a_chain(text: str) -> bool:
    """Whether a module with this text may be a place of the chain of another module's finding, which a
    partial run of it reports since the chain passes through it (`reaching.places_in`): `blocks.py`'s
    `residual(x)` between run.py's vmap and layers.py's shard_map, `utils.py`'s `f(x)` of a function given
    to it, neither naming a shard_map, spec, mesh or sharding (`may_be_reached`; breaker21 v02/v11). Such a
    place is a call inside a function, or a binding of a name imported from a module of the project."""
    from spmdfix.prefilter.bindings import imports_project

    return _CHAIN_WORDS.search(text) is not None or imports_project(text, code_only=True)


def may_be_on_a_chain_bytes(raw: bytes) -> bool:
    """`may_be_on_a_chain` of a module's bytes (any ASCII-compatible encoding) without the import's test: True
    when the text may pass it (the decoded text is asked next)."""
    return _CHAIN_WORDS_BYTES.search(raw) is not None or b"import" in raw


def may_hold_reached(text: str) -> bool:
    """Whether a partial run of a module with this text may report what another module's vmap places in it
    or leads through it: `may_be_reached`, `may_apply_inherited` or `may_be_on_a_chain`."""
    return may_be_reached(text) or may_apply_inherited(text) or may_be_on_a_chain(text)


def may_hold_reached_bytes(raw: bytes) -> bool:
    """`may_hold_reached` of a module's bytes (True when its text may pass it)."""
    return may_be_reached_bytes(raw) or may_apply_inherited_bytes(raw) or may_be_on_a_chain_bytes(raw)
