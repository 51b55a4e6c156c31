"""The textual prefilter: decide from the raw text whether a module can hold a finding at all.

Parsing is the cost of a whole-codebase run; most files of a codebase cannot hold a collision, and even files
that mention `vmap`, `shard_map` and `spmd_axis_name` (JAX's own internals do: they define and forward the
parameter) usually have no spmd vmap site. The test is sound for every form the detector supports, because
each form leaves words in the text:

1. A finding needs a vmap and a shard_map, a with_sharding_constraint, a jit (whose `in_shardings` /
   `out_shardings` may name the spmd axis: SPMD005) or a reshard (whose spec may name the axis the batch is
   placed on: SPMD005/SPMD006) that resolve, through this module's own imports and
   attribute chains, to JAX's (or flax's) names (`spmdfix.analysis.scopes.ModuleIndex.qualname`).
   Every such resolution ends in an identifier written in the text (`vmap`, `shard_map`, `smap`,
   `with_sharding_constraint`, `jit`, `pjit`, `reshard`: in an `import`, a `from ... import ... as ...`, or an attribute
   such as `jax.vmap`). The shard_map or constraint may also live in another module of the project that the
   analysis follows (`spmdfix.analysis.index`): a text without those words is kept when it imports a module
   that is neither the standard library's nor one of the libraries the analysis knows by name (JAX, Flax,
   NumPy, ...), or imports relatively. Modules that are only callees are not filtered here: the index parses
   them on demand. A text with neither is still kept when it holds an spmd vmap site (2. below): a wrapper
   forwarding its parameter as `spmd_axis_name`, or vmapping a callable passed in, gives an SPMD910 record
   though nothing in reach can collide (silence is a claim; 1 file of the corpus, flax's iteration.py).
2. It also needs a vmap site the analysis follows (`spmdfix.analysis.vmap_sites.vmap_sites`), each of which is
   a bracketed argument list written in the text:
   - a call of a vmap — its callee's last name is `vmap`, `vmap_with_axes`, or a name the text binds to one
     (`import ... as`, `=`, `:=`), parenthesised or not — with `spmd_axis_name=` among its top-level
     arguments, or a `**kw` (the dict that `kw` names may hold the key; not an attribute, `**self.kw`, which
     the analysis does not read), or a `*args` (it may fill any
     position), or at least six positional arguments (spmd_axis_name is jax.vmap's 6th positional
     parameter, flax.linen.vmap's 8th; keyword arguments such as `in_axes=0` do not count);
   - a `partial(<vmap>, ..., spmd_axis_name=...)`: an argument list whose first argument is such a name;
   - or (SPMD006) a plain vmap over an input placed with `jax.device_put(x, s)` (or `jax.reshard(x, s)`),
     which needs a placement call passing a sharding `s` the analysis may read or report (a name, a dotted
     name or a call, by position or by the placement's keyword: `calls._may_pass_a_sharding`) and a vmap call
     that is applied (`jax.vmap(f)(x)`, or written as a wrapper's first argument, `jax.jit(jax.vmap(f))(x)`),
     in the function that places the input (`in_one_function`: the placement is the argument itself or the
     name's last assignment in the application's scope; where indentation may mislead, in one enclosing or
     enclosed by it); a def decorated by a plain vmap (`@jax.vmap`, `@partial(jax.vmap, ...)`) is applied
     where its name is used in the scope that binds it. Nothing else about the sharding is asked of the text
     (issue 22): a sharding passed in, a bare spec with no `jax.set_mesh` in sight or a mesh passed in gives
     an SPMD910 record, and such a text names neither `NamedSharding` nor `jax.set_mesh` nor an Explicit mesh.
     A device (`jax.devices()[0]`) or no sharding at all (`jax.device_put(x)`) is not a sharding the
     analysis reads: nothing to find.
   - or a call of a vmap wrapper of another module of the project (`batched(step, spmd_axis_name='x')`,
     whose `def batched(fn, **kw): return jax.vmap(fn, **kw)` lives elsewhere): a text that names
     `spmd_axis_name` and imports a module that may be the project's is kept, whether or not it names a vmap.
   Definitions (`def vmap(..., spmd_axis_name=None)`) are not calls, and a call inside a string literal or a
   comment (a docstring example) is not code: both are passed over.

The text is first read as Python reads it: "\\r\\n" and "\\r" end lines, and identifiers are compared after
NFKC normalisation (`ｖmap` is `vmap`). Between tokens it allows what Python allows inside brackets
(whitespace, line continuations, comments). The argument scan steps over string literals and comments, so
their brackets and commas do not count; when it cannot find the end of an argument list, or when a tracked
name is assigned in a way the line does not show, it keeps the file. `tests/test_prefilter.py` runs the
detector on every golden case without the prefilter and checks that no file with a finding is dropped, and
checks each form above one by one, including the spellings a review found missed (`HOLES_FOUND`).

The words are not a list of their own: they are the last parts of the qualified names the analysis's
recognisers read from `spmdfix.jaxapi` (`jaxapi.PREFILTER_*`, and `jaxapi.SPMD_MIN_POSITIONAL` for the
positional spmd_axis_name), so a name taught to the analysis is known here at once;
`tests/test_prefilter_forms.py` builds a program for every name of those tables and checks that the analysis
finds it and the prefilter keeps it, and, for every placement name, a program whose sharding the analysis
cannot read, which must give an SPMD910 record and be kept. `tests/test_prefilter.py` runs the analysis on
every golden module, the project's own and (with `SPMDFIX_CORPUS`) the corpus's that the prefilter drops: none
may give a finding or a placement's SPMD910 record.

The modules: `text` (the text as Python reads it, where its code is, the lexical pieces), `bindings` (imports,
names bound to vmap and the others), `calls` (the vmap sites: call forms and argument lists), `regions`
(function scopes from indentation, for SPMD006's one-scope test); this package holds the two questions.
"""

from __future__ import annotations

import functools
import re

# The modules that read a text (`text`, `bindings`, `calls`, `regions`: about 30 regular expressions, 27 M
# instructions to import) are imported where a text is first read, not with this package: a warm run of the
# results cache reads no text but imports this package (the runner, the partial runs' modules). A process that
# forks workers imports them first (`load`), so that each worker inherits them compiled.


def load() -> None:
    """Import the modules that read a text now (a process about to fork the workers that will read texts)."""
    import spmdfix.prefilter.bindings
    import spmdfix.prefilter.calls  # noqa: F401 - (with `text`, `regions` and `jaxapi`)


@functools.lru_cache(maxsize=16)
def may_have_findings(source: str) -> bool:
    """True unless the text proves the module cannot hold a finding. Never raises.

    Cached: a run asks it for its statistics and `api.check_source` asks again for the same text.
    """
    from spmdfix.prefilter.bindings import UnknownTargets, bound_names, imports_project
    from spmdfix.prefilter.calls import VMAP, placed_plain_vmap, spmd_vmap_site
    from spmdfix.prefilter.text import as_python_reads_it

    source = as_python_reads_it(source)
    if "vmap" not in source:
        return _calls_a_project_wrapper(source)
    reach = _names_a_reached_word(source) or imports_project(source)
    try:
        vmap = bound_names(source, VMAP)
        if not reach:
            # No shard_map or constraint in reach, yet an spmd vmap site still gives an SPMD910 record where its
            # `spmd_axis_name` or its callee is a parameter (a wrapper forwarding them: flax's
            # nnx/transforms/iteration.py); a plain vmap's placement record needs a reached shard_map. (A call
            # of a project wrapper needs a project import: `reach`.)
            return spmd_vmap_site(source, vmap)
        if spmd_vmap_site(source, vmap) or placed_plain_vmap(source, vmap):
            return True
    except UnknownTargets:
        return True
    return _calls_a_project_wrapper(source)


def _names_a_reached_word(source: str) -> bool:
    """`any(word in source for word in SHARD_MAP_WORDS)`."""
    first, others = _reached_words()
    return first(source) is not None or any(word in source for word in others)


@functools.cache
def _reached_words() -> tuple:
    """`calls.SHARD_MAP_WORDS` without the words that hold another of them (`pjit` holds `jit`): a text holds
    one of these exactly when it holds one of those, and a text without `jit` was searched for `pjit` for
    nothing. `jit` is searched by a compiled pattern (the search steps to each `j`, a rare letter, where `in`
    tries nearly every offset: half the time over the 466 texts of the corpus that hold `vmap`), most texts
    holding it. Returns (the first word's search, the other words)."""
    from spmdfix.prefilter.calls import SHARD_MAP_WORDS

    words = tuple(w for w in SHARD_MAP_WORDS if not any(o != w and o in w for o in SHARD_MAP_WORDS))
    return re.compile(re.escape(words[0])).search, words[1:]


def _calls_a_project_wrapper(source: str) -> bool:
    """Whether the text may call a vmap wrapper of another module of the project with an spmd axis
    (`batched(step, spmd_axis_name='x')`, or `**opts` holding the key, where `batched` forwards its `**kwargs` to
    a vmap: `vmap_sites._wrapper_site`): it names `spmd_axis_name` and imports a module that may be the
    project's. Such a text need not name a vmap."""
    if "spmd_axis_name" not in source:
        return False
    from spmdfix.prefilter.bindings import imports_project

    return imports_project(source, code_only=True)


# `b"vmap" in raw`, a third faster on the benchmark corpus: the search steps through the bytes to each `v`,
# where `in` tries nearly every offset (its last letter, `p`, is common); asked of every module of a tree.
_VMAP_BYTES = re.compile(b"vmap").search


def utf8_may_have_findings(raw: bytes) -> bool:
    """`may_have_findings` of the text whose UTF-8 encoding is `raw`, when its bytes alone can answer False;
    True means: ask `may_have_findings` of the text. Never raises.

    A finding needs `vmap` (or, calling a wrapper of another module, `spmd_axis_name`) in the text as Python
    reads it. UTF-8 spells these words with these very bytes, and only NFKC normalisation (`as_python_reads_it`)
    can make them appear where their bytes are not: a text with neither the bytes nor a character that
    normalisation changes cannot hold one. The bytes are scanned at C
    speed, not decoded: most modules of a tree stop here (2,877 of the 3,343 files of the benchmark corpus),
    the ASCII ones without ever being decoded (`runner`). Bytes that are not UTF-8 are kept (True).
    """
    if _VMAP_BYTES(raw) is not None or b"spmd_axis_name" in raw:
        return True
    if raw.isascii():
        return False
    from spmdfix.prefilter.text import ASCII_BYTES, normalises

    try:
        others = raw.translate(None, ASCII_BYTES).decode("utf-8")  # whole multi-byte sequences remain
    except UnicodeDecodeError:
        return True
    return any(map(normalises, set(others)))
