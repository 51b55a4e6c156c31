"""The vmap sites the prefilter looks for: a vmap call or `partial(<vmap>, ...)` whose argument list may pass an
spmd_axis_name (`spmd_vmap_site`), and SPMD006's plain vmap applied to an input placed with a sharding
(`placed_plain_vmap`); argument lists are read token by token (`_may_pass_spmd_axis_name`, `_argument_at`).
"""

from __future__ import annotations

import re

from spmdfix import jaxapi
from spmdfix.prefilter.bindings import bound_names
from spmdfix.prefilter.regions import in_one_function, scope_span
from spmdfix.prefilter.text import (
    DOTTED_PREFIX,
    GAP,
    NAME,
    STRING,
    end_of_arguments,
    gap_before,
    in_code,
    is_word,
    line_starts,
    occurrences,
)

# The words of the forms the analysis recognises, from the tables its recognisers read (`spmdfix.jaxapi`):
# the last part of each qualified name (`vmap`, `vmap_with_axes`; `shard_map`, `smap`,
# `with_sharding_constraint`; `partial`; `device_put`, `reshard`; the sharding keywords `device`, `out_shardings`).
VMAP = jaxapi.PREFILTER_VMAP_WORDS
# A shard_map (`shard_map`, `jax.smap`), a constraint, a jit or a reshard the vmap may reach in this module.
SHARD_MAP_WORDS = jaxapi.PREFILTER_REACHED_WORDS
_PARTIAL = jaxapi.PREFILTER_PARTIAL_WORDS
_DEVICE_PUT = jaxapi.PREFILTER_PLACEMENT_WORDS
# After a callee's name: closing brackets (`(jax.vmap)(...)`), then the call's opening one.
_CALL_OPEN = re.compile(rf"(?:{GAP}\))*{GAP}\(")
_DEFINITION = re.compile(r"(?<![\w.])def(?:[ \t\f]|\\\n)+$")
# What the argument scan stops at: string literals (skipped whole, so their brackets and commas do not count),
# comments, brackets, commas, `**` and the `spmd_axis_name=` keyword. Any other character is passed over.
_TOKEN = re.compile(
    rf"(?P<str>{STRING})|(?P<comment>#[^\n]*)|(?P<open>[(\[{{])|(?P<close>[)\]}}])|(?P<comma>,)|(?P<stars>\*\*)"
    rf"|(?P<keyword>\bspmd_axis_name{GAP}=(?!=))",
    re.DOTALL,
)
_POSITIONAL_SPMD = jaxapi.SPMD_MIN_POSITIONAL  # jax.vmap's 6th positional parameter (flax.linen.vmap: 8th)


def spmd_vmap_site(source: str, vmap: set[str]) -> bool:
    """A vmap call, or a `partial(<vmap>, ...)`, whose argument list may pass an spmd_axis_name."""
    for start, end in _calls(source, vmap):
        if _may_pass_spmd_axis_name(source, end) and in_code(source, start):
            return True
    if "partial" not in source:  # every name bound to functools.partial is spelled with it somewhere
        return False
    alternation = "|".join(sorted(vmap))
    first_argument = rf"(?:\({GAP})*{DOTTED_PREFIX}(?:{alternation})(?:{GAP}\))*{GAP},"
    factory = re.compile(rf"(?:{GAP}\))*{GAP}\((?={GAP}{first_argument})")
    for name in bound_names(source, _PARTIAL):
        for start, end in occurrences(source, name):
            match = factory.match(source, end)
            if match and _may_pass_spmd_axis_name(source, match.end()) and in_code(source, start):
                return True
    return False


def placed_plain_vmap(source: str, vmap: set[str]) -> bool:
    """SPMD006's words: a vmap call that is applied (or a vmap decorating a def) and a `device_put` (or
    `reshard`) call passing a sharding the analysis may read or report (`_may_pass_a_sharding`), in one
    function (`in_one_function`).

    Nothing about the placement's sharding is asked of the text: a placement whose sharding, mesh or spec the
    analysis cannot read (a parameter, `reshard(x, P(...))` with no `jax.set_mesh` in sight, a mesh passed in)
    gives an SPMD910 record when the vmapped function reaches a shard_map (`analysis.placement`), and such a
    file names neither `NamedSharding` nor `jax.set_mesh` nor an Explicit mesh (issue 22: the prefilter drops a
    file only when the analysis would give neither a finding nor a record)."""
    if not any(word in source for word in _DEVICE_PUT):
        return False
    # Each call is asked whether it is code (`in_code`: a scan of the whole text for strings) only once
    # every kind of call has been seen somewhere in the text.
    placers = bound_names(source, _DEVICE_PUT)
    placed = [start for start, end in _calls(source, placers) if _may_pass_a_sharding(source, end)]
    if not placed:
        return False
    applied, unapplied = [], []
    for a, end in _calls(source, vmap):
        (applied if _may_be_applied(source, a, end) else unapplied).append(a)
    # `batched = jax.vmap(block)` then `batched(xs)`: the vmap is applied where the name is used (also when a
    # wrapper around it is what the name binds, `batched = jax.jit(jax.vmap(block))`, applied here already)
    applied += _assigned_uses(source, unapplied + applied)
    decorating = _decorators_naming(source, vmap)
    if not applied and not decorating:
        return False
    placed = [start for start in placed if in_code(source, start)]
    if not placed:
        return False
    applied = [start for start in applied if in_code(source, start)]
    decorating = [start for start in decorating if in_code(source, start)]
    if not applied and not decorating:
        return False
    # A vmap decorating a def is applied where the def's name is called (`f(x)`, `jax.jit(f)(x)`), and the
    # analysis reads the placement in that call's scope (`analysis.placement`): every use of the name in the
    # scope binding it counts as an applied vmap.
    return in_one_function(source, applied + _decorated_uses(source, decorating), placed)


# A decorator: `@` first on its line, then the decorator's dotted name (`_decorators_naming`); group 1 is the
# whole decorator, searched at line starts (`text.line_starts`: a MULTILINE `^` made the engine try every
# offset, two thirds of `_decorators_naming` on jax's test modules).
_DECORATOR = rf"([ \t]*@{GAP}{DOTTED_PREFIX}{NAME})"


def _decorators_naming(source: str, vmap: set[str]) -> list[int]:
    """The starts of the decorators whose text names a vmap (`@jax.vmap`, `@partial(jax.vmap, in_axes=0)`):
    the decorator's name and, when it is called, its whole argument list (or the rest of the text when its
    end cannot be found). More than the analysis follows (`analysis.placement`), never less."""
    if not vmap:
        return []
    found = []
    # (one pattern for every name, searched in place: jax's test modules hold thousands of decorators)
    naming = re.compile(rf"(?<!\w)(?:{'|'.join(sorted(map(re.escape, vmap)))})(?!\w)")
    for match in line_starts(source, _DECORATOR):
        start, end = match.span(1)
        opening = _CALL_OPEN.match(source, end)
        if opening is not None:
            end = end_of_arguments(source, opening.end()) or len(source)
        if naming.search(source, start, end):
            found.append(start)
    return found


# The `def` a decorator decorates: the first one after it (decorators hold no `def` statement).
_DEF_NAME = re.compile(rf"^[ \t]*(?:async[ \t]+)?def[ \t]+({NAME})", re.MULTILINE)


def _decorated_uses(source: str, decorators: list[int]) -> list[int]:
    """The starts of the uses in code (the definition left out) of the names of the defs the decorators
    starting at `decorators` decorate, within the scope that binds the name (`regions.scope_span`: the
    analysis reads only the loads of that binding, `analysis.placement`; jax's test modules decorate a
    local `f` in many tests, and call other `f`s beside placements); a decorator with no `def` after it
    counts as a use itself (a class, which the analysis does not follow, or text this scan misreads: kept
    rather than dropped)."""
    uses = []
    for start in decorators:
        found = _DEF_NAME.search(source, start)
        if found is None:
            uses.append(start)
            continue
        uses += [at for at, _ in _scoped_occurrences(source, found.group(1), start) if at != found.start(1)]
    return uses


def _scoped_occurrences(source: str, name: str, at: int) -> list[tuple[int, int]]:
    """The occurrences in code of `name` (start, end) within the scope evaluating the code at `at`
    (`regions.scope_span`), where a name that scope binds can be read."""
    low, high = scope_span(source, at)
    return [(i, end) for i, end in occurrences(source, name, low, high) if in_code(source, i)]


# `NAME =` (or `NAME: T =`) alone before a call on its line, or with wrapper calls opened between
# (`normalise = jax.jit(jax.vmap(f))`): the call's value, or the wrapper's, is bound to NAME.
_ASSIGNED_TO = re.compile(rf"^[ \t]*({NAME})[ \t]*(?::[^=\n]*)?=[ \t]*(?:[\w.]+[ \t]*\([ \t]*)*$")


def _assigned_uses(source: str, starts: list[int]) -> list[int]:
    """The starts of the calls in code of the names the vmap calls starting at `starts` (with their dotted
    prefix) are assigned to, in the scope binding the name (`regions.scope_span`), as `_decorated_uses` reads a
    decorated def's name: `batched = jax.vmap(block)` is applied where `batched(xs)` is written
    (`analysis.placement.PlacementAnalysis._named_vmap`)."""
    uses = []
    for start in starts:
        i = start
        while i > 0 and (is_word(source, i - 1) or source[i - 1] == "."):
            i -= 1  # (the dotted prefix: `jax.` of `jax.vmap`)
        line = source.rfind("\n", 0, i) + 1
        found = _ASSIGNED_TO.match(source[line:i])
        if found is None:
            continue
        # (called: `batched(xs)`, as the analysis reads it, or given to a wrapper called there: `jax.jit(batched)(xs)`,
        # breaker6; the assignment's target is neither)
        uses += [
            at for at, end in _scoped_occurrences(source, found.group(1), start)
            if _CALL_OPEN.match(source, end) or "(" in source[gap_before(source, at):at]
        ]
    return uses


def _may_be_applied(source: str, start: int, end: int) -> bool:
    """Whether the vmap call whose name starts at `start` (its argument list opening at `end`) may be the
    callee of a call, as SPMD006's `jax.vmap(f)(x)` is (`analysis.placement.PlacementAnalysis._vmap_of`):
    its argument list is followed by `(` (closing brackets between), or the call is written right after a
    `(`, as the first argument of a wrapper (`jax.jit(jax.vmap(f))(x)`) or in brackets, whose use is not
    followed here. True as well when the end of its argument list cannot be found. (Jax's lax.py calls
    vmap only to keep the function: 10,000 lines parsed for nothing.)"""
    i = gap_before(source, start)
    while i > 0 and source[i - 1] == ".":  # the dotted prefix: `jax.` of `jax.vmap`
        i = gap_before(source, i - 1)
        while is_word(source, i - 1):
            i -= 1
        i = gap_before(source, i)
    if "(" in source[i:start]:  # (`gap_before` steps back over opening brackets too)
        return True
    after = end_of_arguments(source, end)
    return after is None or _CALL_OPEN.match(source, after) is not None


def _calls(source: str, names: set[str]):
    """(start of the name, offset after the `(`) of every call of one of `names` (definitions left out)."""
    for name in names:
        for start, end in occurrences(source, name):
            match = _CALL_OPEN.match(source, end)
            if match and not _is_definition(source, start):
                yield start, match.end()


def _is_definition(source: str, start: int) -> bool:
    """Whether the name at `start` is the one a `def` statement defines (a `def` in code, not a comment)."""
    found = _DEFINITION.search(source, max(0, start - 40), start)
    return found is not None and in_code(source, found.start())


def _may_pass_spmd_axis_name(source: str, start: int) -> bool:
    """Whether the argument list opening at `start` may pass an spmd_axis_name: `spmd_axis_name=` or `**`
    (but not `**self.kwargs`: `_ATTRIBUTE_MAPPING`) at its top level, a `*args` argument, at least six
    positional arguments (`_POSITIONAL_SPMD`), or no visible end.

    Keyword arguments do not count towards the six: spmd_axis_name is passed by position only as jax.vmap's
    6th positional argument (flax.linen.vmap's 8th, vmap_with_axes' 9th; `analysis.calls.argument`), and
    Python puts no positional argument after a keyword one but `*args`, which keeps the file. Each
    top-level comma starts an argument, so a lambda's parameters count as arguments too: more, never fewer,
    since no positional argument starts with `name =`. In a `partial(<vmap>, ...)` the vmap is counted as
    well: more than the analysis follows (it reads only the keyword there), never less.
    """
    positional = _argument_at(source, start)
    if positional is None:
        return True
    depth = 1
    for token in _TOKEN.finditer(source, start):
        kind = token.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth == 0:
                return False
        elif depth == 1:
            if kind == "keyword" or (kind == "stars" and not _ATTRIBUTE_MAPPING.match(source, token.end())):
                return True
            if kind == "comma":
                argument = _argument_at(source, token.end())
                if argument is None:
                    return True
                positional += argument
                if positional >= _POSITIONAL_SPMD:
                    return True
    return True


# After a top-level `**`: an attribute, `**self.kwargs`, whose dict the analysis does not read (a `**kw` gives
# a vmap site only when `kw` is a name assigned a dict display or `dict(...)`: `vmap_sites._from_kwargs`
# through `values.Evaluator.resolve_name`, which follows names only). jax's hijax.py.
_ATTRIBUTE_MAPPING = re.compile(rf"{GAP}{NAME}(?:{GAP}\.{GAP}{NAME})+{GAP}[,)]")
# At an argument's start: a starred one, `*args`, after any gap (a `**kw` is a `stars` token of `_TOKEN`).
_STARRED_ARGUMENT = re.compile(rf"{GAP}\*(?!\*)")
# ... the end of the list (after a trailing comma, or none at all).
_NO_ARGUMENT = re.compile(rf"{GAP}\)")
# ... a keyword argument, `name =` (not `==`, nor a walrus's `:=`), after whitespace only: with a comment
# or a line continuation before it, the argument counts as positional (the file kept for nothing).
_KEYWORD_ARGUMENT = re.compile(rf"\s*{NAME}[ \t\f]*=(?!=)")


def _may_pass_a_sharding(source: str, start: int) -> bool:
    """Whether the argument list of a placement opening at `start` may pass a sharding the analysis reads or
    reports (`analysis.placement.PlacementAnalysis._placement`): a second positional argument or a keyword of
    `jaxapi.PREFILTER_SHARDING_KEYWORDS` (`device=`, `out_shardings=`) whose text is a name, a dotted name or
    a call (`_NAMED_OR_CALLED`: what a name resolves to, a `NamedSharding(...)`, `P(...)`), an argument in
    brackets, a starred argument, or no visible end.

    Any other sharding expression (`jax.devices()[0]`, `x.sharding[0]`, `a if c else b`) is, to the
    analysis, a value that is not a spec to read: it gives neither a finding nor a record; nor does a placement
    without a sharding (`jax.device_put(x)`, the default device)."""
    arguments = _top_level_arguments(source, start)
    if arguments is None:
        return True
    position = 0
    for begin, end in arguments:
        text = source[begin:end]
        if _STARRED_ARGUMENT.match(text) or _FIRST_STARS.match(text):
            return True
        keyword = _KEYWORD.match(text)
        if keyword is not None:
            if keyword.group("name") in _SHARDING_KEYWORDS and _may_name_a_sharding(text[keyword.end():]):
                return True
            continue
        if position == 1 and _may_name_a_sharding(text):
            return True
        position += 1
    return False


# The keyword of the sharding parameter of each placement (`device=`, `out_shardings=`).
_SHARDING_KEYWORDS = jaxapi.PREFILTER_SHARDING_KEYWORDS
# A keyword argument, `name =` (not `==`), comments and continuations allowed around the name.
_KEYWORD = re.compile(rf"{GAP}(?P<name>{NAME}){GAP}=(?!=)")
# At an argument list's start: a `**kw` (which `_argument_at` counts as a keyword argument).
_FIRST_STARS = re.compile(rf"{GAP}\*\*")
# A sharding argument the analysis may read: a (dotted) name, then the argument's end or a call's `(`.
_NAMED_OR_CALLED = re.compile(rf"{GAP}{DOTTED_PREFIX}{NAME}{GAP}(?P<call>\()?")
_BRACKETED = re.compile(rf"{GAP}\(")
_END = re.compile(rf"{GAP}$")


def _may_name_a_sharding(text: str) -> bool:
    """Whether an argument's text may be a name, a call or a bracketed expression (the sharding the analysis
    resolves through names: `values.Evaluator.resolve_name`), rather than some other expression."""
    if _BRACKETED.match(text):
        return True
    named = _NAMED_OR_CALLED.match(text)
    if named is None:
        return False
    if named.group("call") is None:
        return _END.match(text, named.end()) is not None
    after = end_of_arguments(text, named.end())
    return after is None or _END.match(text, after) is not None


def _top_level_arguments(source: str, start: int) -> list[tuple[int, int]] | None:
    """(start, end) of each top-level argument of the argument list opening at `start` (a trailing comma's
    empty one left out), or None when its end cannot be found."""
    found, begin, depth = [], start, 1
    for token in _TOKEN.finditer(source, start):
        kind = token.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth == 0:
                if not _NO_ARGUMENT.match(source, begin):
                    found.append((begin, token.start()))
                return found
        elif kind == "comma" and depth == 1:
            found.append((begin, token.start()))
            begin = token.end()
    return None


def _argument_at(source: str, i: int) -> int | None:
    """How many positional arguments start at offset `i` (just after an argument list's `(` or a top-level
    comma): 1 for a positional argument (or one this cannot tell from a keyword one), 0 for a keyword
    argument, a `**kw` (read by the caller) or none (a trailing comma); None for `*args`, which may carry
    any position."""
    if _STARRED_ARGUMENT.match(source, i):
        return None
    if _NO_ARGUMENT.match(source, i) or _KEYWORD_ARGUMENT.match(source, i):
        return 0
    return 1
