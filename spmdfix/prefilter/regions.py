"""Function scopes from indentation, for SPMD006's one-scope test (`in_one_function`): the region of each `def`
(`_def_regions`), the scopes that may evaluate an offset (`_scopes_of`: a `def`'s header is evaluated outside
it), and whether every region is exact (`_regions_exact`), so that a pair must share a scope rather than sit
in regions that enclose one another.
"""

from __future__ import annotations

import bisect
import functools
import re

from spmdfix.prefilter.text import (
    GAP,
    NAME,
    STRING,
    end_of_arguments,
    first_non_space,
    in_code,
    line_starts,
)

# A `def` line (after spaces only: a tab or a form feed counts as code at its column, as in `_closing_line`).
_DEF_LINE = r"( *)(?:async[ \t]+)?def\b"  # at a line's start


@functools.lru_cache(maxsize=64)
def _closing_line(indent: int) -> re.Pattern:
    """A line break, then a code line indented no deeper than `indent` spaces (a tab or a form feed is code
    at its column); group 1 starts the line."""
    return re.compile(rf"\n( {{0,{indent}}})[^ \n#]")


def in_one_function(source: str, applied: list[int], placed: list[int]) -> bool:
    """Whether some applied vmap call (offsets `applied`) and some `device_put` / `reshard` call (`placed`)
    may lie in one scope, as SPMD006 needs: the placed input is the call itself, written in the application,
    or a name whose last assignment before it in the application's scope is that call
    (`analysis.placement.PlacementAnalysis._last_assignment`, which looks at the bindings of that scope only).
    jax's test modules call both in hundreds of test methods, never in the same one.

    Each offset gets the innermost `def` around it, from indentation (`_def_regions`), or the one around that
    as well in a `def`'s header, which the scope around the function evaluates (`_scopes_of`). Continuation
    lines inside brackets may be indented less than their statement and close regions early (but those of a
    `def`'s own parameter list, `_header_end`: the `):` of a formatter's multi-line signature sits at the
    `def`'s indentation); spaces before a tab count as the line's indentation. Both only close regions too
    early, which moves later lines to an enclosing region; so a pair counts when one call's region encloses
    the other's: a coarser answer, never a pair dropped. When no region can have closed so
    (`_regions_exact`), each region is its `def`'s scope with the scopes nested in it but not in a nested
    `def` (lambdas, comprehensions, class bodies), and a pair must share one: jax's shard_map notebook places
    inputs at the top level and applies plain vmaps in functions (2.3 MB analysed for nothing).
    """
    regions = _regions(source)
    parents = regions[2]
    headers: dict[int, int] = {}  # by region: where its header ends (`_scopes_of`)

    def enclosing(region: int) -> set[int]:
        chain = {region}
        while region != -1:
            region = parents[region]
            chain.add(region)
        return chain

    placed_scopes = set().union(*(_scopes_of(source, regions, offset, headers) for offset in placed))
    applied_scopes = [_scopes_of(source, regions, offset, headers) for offset in applied]
    chains = {region: enclosing(region) for region in placed_scopes}
    coarse = False
    for region in set().union(*applied_scopes):
        around = enclosing(region)
        if any(p in around or region in chains[p] for p in placed_scopes):
            coarse = True
            break
    if not coarse or not _exact(source):
        return coarse
    return any(placed_scopes & scopes for scopes in applied_scopes)


def scope_span(source: str, offset: int) -> tuple[int, int]:
    """The span of the text that the scope evaluating the code at `offset` covers: its innermost `def`'s
    region (`_def_regions`; the scopes nested in it included), or the whole text at module level, or when the
    regions may have closed early (`_regions_exact`: a later line of the scope could then lie past the
    region's end). Code outside the span cannot read a name that scope binds."""
    regions = _regions(source)
    region = _region_of(regions, offset)
    if region == -1 or not _exact(source):
        return 0, len(source)
    return regions[0][region], regions[1][region]


@functools.lru_cache(maxsize=4)
def _regions(source: str) -> tuple[list[int], list[int], list[int]]:
    """`_def_regions`, once per text (`in_one_function` and `scope_span` ask for the same text; callers must
    not change the lists)."""
    return _def_regions(source)


@functools.lru_cache(maxsize=4)
def _exact(source: str) -> bool:
    """`_regions_exact` of the text's regions, once per text."""
    return _regions_exact(source, _regions(source))


def _regions_exact(source: str, regions: tuple[list[int], list[int], list[int]]) -> bool:
    """Whether every region (`_def_regions`) ends where a statement starts, so that each holds exactly its
    `def`'s lines: the line that ends it is indented with spaces only (no tab nor form feed), the line before
    it does not end in a backslash (a continuation), and it lies outside every bracket. Brackets are counted
    outside string literals and comments over the whole text; a count that goes below zero or does not end
    at zero (a literal the scan misreads, a text that does not parse) answers False.

    The count goes a stretch at a time, from one region's end to the next (no literal spans a region's end,
    which is a line start in code): the stretch's brackets outside literals (`_NOT_BRACKETS` deletes the rest)
    must close as they open, which removing each adjacent open-close pair until none is left tells (the count
    never goes below zero and ends at zero exactly when nothing is left). A scan token by token from Python
    cost 2 ms on jax's large test modules; this is C-speed passes over the text."""
    ends = sorted({end for end in regions[1] if end < len(source)})
    for end in ends:
        first = first_non_space(source, end)
        if source[first] in "\t\f" or source[end - 2 : end] == "\\\n":
            return False
    start = 0
    for end in [*ends, len(source)]:
        brackets = _NOT_BRACKETS.sub("", source[start:end]).translate(_ONE_KIND)
        while "()" in brackets:
            brackets = brackets.replace("()", "")
        if brackets:
            return False
        start = end
    return True


# What `_regions_exact` deletes to count brackets: the tokens `text.BRACKET` passes over (string literals,
# comments, and a quote that opens none) and the runs of characters between them that hold no bracket.
_NOT_BRACKETS = re.compile(rf"{STRING}|#[^\n]*|[^()\[\]{{}}'\"#]+|['\"]", re.DOTALL)
# Every opening bracket as `(`, every closing one as `)`: the count does not tell them apart.
_ONE_KIND = str.maketrans("[{]}", "(())")


def _scopes_of(
    source: str, regions: tuple[list[int], list[int], list[int]], offset: int, headers: dict[int, int]
) -> set[int]:
    """The regions whose scope may evaluate the code at `offset`: its innermost region's, and the one around
    that too when `offset` lies in the `def`'s header, from `def` to the `:` that ends it (`_header_colon`):
    its defaults and annotations are evaluated outside the function. When a `lambda` comes before that `:`,
    which may then be the lambda's, the whole region counts as header. `headers` keeps each region's header
    end once found."""
    region = _region_of(regions, offset)
    if region == -1:
        return {-1}
    end = headers.get(region)
    if end is None:
        start = regions[0][region]
        end = _header_colon(source, start)
        if re.search(r"\blambda\b", source[start:end]):
            end = regions[1][region]
        headers[region] = end
    return {region, regions[2][region]} if offset < end else {region}


_HEADER_TOKEN = re.compile(rf"{STRING}|#[^\n]*|(?P<open>[(\[{{])|(?P<close>[)\]}}])|(?P<colon>:)", re.DOTALL)


def _header_colon(source: str, start: int) -> int:
    """The offset after the first `:` outside brackets, string literals and comments from `start` (the end of
    a `def`'s header), or the end of the text."""
    depth = 0
    for token in _HEADER_TOKEN.finditer(source, start):
        kind = token.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
        elif kind == "colon" and depth <= 0:
            return token.end()
    return len(source)


def _def_regions(source: str) -> tuple[list[int], list[int], list[int]]:
    """The region of each `def` (the module encloses all: region -1), in text order: (starts, ends, parents).

    A `def` line whose start is code (not in a string) opens a region at its start, which the next code line
    (its start in code, its first character not `#`) indented no deeper ends (or the end of the text);
    `parents[k]` is the innermost region open at region k's start. Regions nest, since a line that opens a
    region inside another is indented deeper than that one's `def`. One regular expression search per region
    end, not a step per line (jax's 12,000-line test modules)."""
    starts: list[int] = []
    ends: list[int] = []
    parents: list[int] = []
    open_regions: list[int] = []
    for match in line_starts(source, _DEF_LINE):
        start = match.start(1)
        if not in_code(source, start):
            continue
        while open_regions and ends[open_regions[-1]] <= start:
            open_regions.pop()
        parents.append(open_regions[-1] if open_regions else -1)
        starts.append(start)
        ends.append(_region_end(source, start, len(match.group(1))))
        open_regions.append(len(starts) - 1)
    return starts, ends, parents


def _region_of(regions: tuple[list[int], list[int], list[int]], offset: int) -> int:
    """The innermost of `regions` (`_def_regions`) around `offset`, or -1 (the module)."""
    starts, ends, parents = regions
    k = bisect.bisect_right(starts, offset) - 1
    while k != -1 and ends[k] <= offset:  # regions nest: the innermost one still open at `offset`
        k = parents[k]
    return k


def _region_end(source: str, start: int, indent: int) -> int:
    """The start of the first code line after the header of the `def` at `start` (`_header_end`) indented at
    most `indent` spaces and not starting with a closing bracket, or the end of the text."""
    closing = _closing_line(indent)
    line_end = source.find("\n", _header_end(source, start))
    while line_end >= 0:
        match = closing.search(source, line_end)
        if match is None:
            break
        # (a line starting with a closing bracket goes on a statement, inside its brackets: the `)(x, y)`
        # that closes a call a formatter wrote across lines, at the `def`'s indentation; ending the region
        # there made every region of jax's tpu_pallas_test.py inexact, and its 6,000 lines parsed for nothing)
        if source[match.end() - 1] not in ")]}" and in_code(source, match.start(1)):
            return match.start(1)
        line_end = source.find("\n", match.start(1))
    return len(source)


# A `def`'s name and the `(` of its parameters (no type parameters: `def f[T](` is read as before), and
# what may follow the `)` closing them: the header's `:` or a return annotation.
_DEF_PARAMETERS = re.compile(rf" *(?:async[ \t]+)?def(?:[ \t]|\\\n)+{NAME}{GAP}\(")
_AFTER_PARAMETERS = re.compile(rf"{GAP}(?::|->)")


def _header_end(source: str, start: int) -> int:
    """For the `def` whose line starts at `start`: the end of its parameter list when that list goes on past
    the `def`'s line, else `start`. The lines inside the list are no statements, however little they are
    indented, so a region's end is looked for after it. Only a list whose end is found (`end_of_arguments`:
    brackets outside strings and comments) and followed by `:` or `->` is stepped over; else the region is
    read from the `def`'s line, as before (a coarser answer). Asked only when the `def`'s line opens more
    round brackets than it closes (a bracket in a string there can only leave the list unread)."""
    line_end = source.find("\n", start)
    if line_end < 0:
        line_end = len(source)
    if source.count("(", start, line_end) <= source.count(")", start, line_end):
        return start
    header = _DEF_PARAMETERS.match(source, start)
    if header is None:
        return start
    end = end_of_arguments(source, header.end())
    if end is None or _AFTER_PARAMETERS.match(source, end) is None:
        return start
    return end
