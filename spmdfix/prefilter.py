"""The textual prefilter: decide from the raw text whether a module can hold a finding at all.

Parsing is the cost of a whole-codebase run; most files of a codebase cannot hold a collision, and even files
that mention `vmap`, `shard_map` and `spmd_axis_name` (JAX's own internals do: they define and forward the
parameter) usually have no spmd vmap site. The test is sound for every form the detector supports, because
each form leaves words in the text:

1. A finding needs a vmap and a shard_map or a with_sharding_constraint that resolve, through this module's
   own imports and attribute chains, to JAX's (or flax's) names (`spmdfix.analysis.scopes.ModuleIndex.qualname`).
   Every such resolution ends in an identifier written in the text (`vmap`, `shard_map`, `smap`,
   `with_sharding_constraint`: in an `import`, a `from ... import ... as ...`, or an attribute such as
   `jax.vmap`). The shard_map or constraint may also live in another module of the project that the
   analysis follows (`spmdfix.analysis.index`): a text without those words is kept when it imports a module
   that is neither the standard library's nor one of the libraries the analysis knows by name (JAX, Flax,
   NumPy, ...), or imports relatively. Modules that are only callees are not filtered here: the index parses
   them on demand.
2. It also needs a vmap site the analysis follows (`spmdfix.analysis.vmap_sites.vmap_sites`), each of which is
   a bracketed argument list written in the text:
   - a call of a vmap — its callee's last name is `vmap`, `vmap_with_axes`, or a name the text binds to one
     (`import ... as`, `=`, `:=`), parenthesised or not — with `spmd_axis_name=` among its top-level
     arguments, or a `**kw` (the dict that `kw` names may hold the key; not an attribute, `**self.kw`, which
     the analysis does not read), or a `*args` (it may fill any
     position), or at least six positional arguments (spmd_axis_name is jax.vmap's 6th positional
     parameter, flax.linen.vmap's 8th; keyword arguments such as `in_axes=0` do not count);
   - a `partial(<vmap>, ..., spmd_axis_name=...)`: an argument list whose first argument is such a name;
   - or (SPMD006) a plain vmap over an input placed with `jax.device_put(x, NamedSharding(...))` (or
     `jax.reshard(x, NamedSharding(...))`) on an Explicit mesh, which needs those words and a vmap call
     that is applied (`jax.vmap(f)(x)`, or written as a wrapper's first argument, `jax.jit(jax.vmap(f))(x)`),
     in the function that places the input (`_in_one_function`: the placement is the argument itself or the
     name's last assignment in the application's scope; where indentation may mislead, in one enclosing or
     enclosed by it); the Explicit mesh may be built in another module the text imports.
   Definitions (`def vmap(..., spmd_axis_name=None)`) are not calls, and a call inside a string literal or a
   comment (a docstring example) is not code: both are passed over.

The text is first read as Python reads it: "\\r\\n" and "\\r" end lines, and identifiers are compared after
NFKC normalisation (`ｖmap` is `vmap`). Between tokens it allows what Python allows inside brackets
(whitespace, line continuations, comments). The argument scan steps over string literals and comments, so
their brackets and commas do not count; when it cannot find the end of an argument list, or when a tracked
name is assigned in a way the line does not show, it keeps the file. `tests/test_prefilter.py` runs the
detector on every golden case without the prefilter and checks that no file with a finding is dropped, and
checks each form above one by one, including the spellings a review found missed (`HOLES_FOUND`).
"""

from __future__ import annotations

import bisect
import functools
import re
import sys
import unicodedata
from collections.abc import Iterator

_VMAP = ("vmap", "vmap_with_axes")
# A shard_map (`shard_map`, `jax.smap`) or a constraint the vmap may reach in this module.
_SHARD_MAP_WORDS = ("shard_map", "smap", "with_sharding_constraint")
_PARTIAL = ("partial",)
_DEVICE_PUT = ("device_put", "reshard")
_NAMED_SHARDING = ("NamedSharding",)
_NAME = r"[^\W\d]\w*"  # a Python identifier (Unicode letters included)
# What may sit between two tokens inside brackets: whitespace, line continuations, comments.
_GAP = r"(?:\s|\\\n|#[^\n]*)*"
_DOTTED_PREFIX = rf"(?:{_NAME}{_GAP}\.{_GAP})*"
# After a callee's name: closing brackets (`(jax.vmap)(...)`), then the call's opening one.
_CALL_OPEN = re.compile(rf"(?:{_GAP}\))*{_GAP}\(")
_DEFINITION = re.compile(r"(?<![\w.])def(?:[ \t\f]|\\\n)+$")
# After a name that ends an assignment's value: closing brackets, then the end of the statement.
_STATEMENT_END = re.compile(rf"(?:{_GAP}\))*(?:[ \t\f]|\\\n)*(?:#[^\n]*)?(?:\n|;|\Z)")
# `a = b = jax.vmap` / `v: Any = vmap` (a whole simple statement, the value a dotted name, not a call).
_ASSIGNMENT = re.compile(
    rf"[ \t\f]*((?:{_NAME}[ \t\f]*(?::[^=]*)?=[ \t\f]*)+)\(?[ \t\f]*([\w.]+)[ \t\f]*\)?[ \t\f]*(?:#.*)?$"
)
_TARGET = re.compile(rf"({_NAME})[ \t\f]*(?::[^=]*)?=")
_WALRUS_TARGET = re.compile(rf"({_NAME}){_GAP}$")
# A string literal; a backslash escapes any character, a line break included (re.DOTALL). Each is written
# "unrolled" (a run of plain characters, then an escape or a lone quote and another run): the same matches as
# `'''(?:\\.|[^\\])*?'''`, without a step of the regex engine's loop per character (five times faster).
_STRING = (
    r"'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    r'|"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
)
# What the argument scan stops at: string literals (skipped whole, so their brackets and commas do not count),
# comments, brackets, commas, `**` and the `spmd_axis_name=` keyword. Any other character is passed over.
_TOKEN = re.compile(
    rf"(?P<str>{_STRING})|(?P<comment>#[^\n]*)|(?P<open>[(\[{{])|(?P<close>[)\]}}])|(?P<comma>,)|(?P<stars>\*\*)"
    rf"|(?P<keyword>\bspmd_axis_name{_GAP}=(?!=))",
    re.DOTALL,
)
# String literals and comments, scanned from the start of the text: an occurrence inside one is not code.
_STRING_OR_COMMENT = re.compile(rf"{_STRING}|#[^\n]*", re.DOTALL)
_POSITIONAL_SPMD = 6  # spmd_axis_name is jax.vmap's 6th positional parameter (flax.linen.vmap: 8th)


class _Unknown(Exception):
    """An assignment of a tracked name whose targets the text does not show: keep the file."""


@functools.lru_cache(maxsize=16)
def may_have_findings(source: str) -> bool:
    """True unless the text proves the module cannot hold a finding. Never raises.

    Cached: a run asks it for its statistics and `api.check_source` asks again for the same text.
    """
    source = _as_python_reads_it(source)
    if "vmap" not in source:
        return False
    if not any(word in source for word in _SHARD_MAP_WORDS) and not _imports_project(source):
        return False
    try:
        vmap = _bound_names(source, _VMAP)
        return _spmd_vmap_site(source, vmap) or _placed_plain_vmap(source, vmap)
    except _Unknown:
        return True


_ASCII_BYTES = bytes(range(128))


def utf8_may_have_findings(raw: bytes) -> bool:
    """`may_have_findings` of the text whose UTF-8 encoding is `raw`, when its bytes alone can answer False;
    True means: ask `may_have_findings` of the text. Never raises.

    A finding needs `vmap` in the text as Python reads it. UTF-8 spells `vmap` with these very bytes, and
    only NFKC normalisation (`_as_python_reads_it`) can make it appear where its bytes are not: a text with
    neither the bytes nor a character that normalisation changes cannot hold one. The bytes are scanned at C
    speed, not decoded: most modules of a tree stop here (2,877 of the 3,343 files of the benchmark corpus),
    the ASCII ones without ever being decoded (`runner`). Bytes that are not UTF-8 are kept (True).
    """
    if b"vmap" in raw:
        return True
    if raw.isascii():
        return False
    try:
        others = raw.translate(None, _ASCII_BYTES).decode("utf-8")  # whole multi-byte sequences remain
    except UnicodeDecodeError:
        return True
    return any(map(_normalises, set(others)))


@functools.lru_cache(maxsize=4096)
def _normalises(char: str) -> bool:
    """Whether `_as_python_reads_it` replaces `char` (an identifier character that NFKC changes)."""
    return unicodedata.normalize("NFKC", char) != char and ("a" + char).isidentifier()


_IMPORT = r"[ \t]*(?:from[ \t]+(\.|[^\W\d]\w*)|import[ \t]+([^\n;#]+))"  # at a line's start
# Top-level modules that hold no shard_map of the project: the standard library, the libraries the analysis
# knows by name (`spmdfix.analysis.index.NOT_FOLLOWED`), and test and data libraries that JAX projects import
# but do not write (absl and pytest alone kept ten test modules of the public JAX repositories, for nothing).
_KNOWN = frozenset(sys.stdlib_module_names) | frozenset(
    {"jax", "jaxlib", "flax", "numpy", "optax", "orbax", "chex", "einops", "ml_dtypes", "__future__"}
    | {"absl", "pytest", "hypothesis", "scipy", "pandas", "tensorflow", "torch", "typing_extensions", "tqdm"}
    # (and jax's own tests and benchmarks: lax_test.py's `import mpmath` kept its 5,000 lines for nothing)
    | {"mpmath", "rich", "google_benchmark"}
)


def _imports_project(source: str, code_only: bool = False) -> bool:
    """Whether an import statement may name a module of the project: a relative import, or a top-level
    module that is not a known one. With `code_only`, statements inside string literals and comments (a
    docstring's "from NumPy") are passed over; without it they count (kept for nothing then), which saves
    the scan for string literals on the many texts this is asked about first."""
    for match in _import_lines(source):
        if code_only and not _in_code(source, match.start(1) if match.group(1) is not None else match.start(2)):
            continue
        if match.group(1) is not None:
            if match.group(1) == "." or match.group(1) not in _KNOWN:
                return True
            continue
        for item in match.group(2).replace("(", " ").replace(")", " ").replace("\\", " ").split(","):
            words = item.split()
            if words and words[0].split(".")[0] not in _KNOWN:
                return True
    return False


_IMPORT_WORDS = ("from", "import")  # the words `_IMPORT` starts with, after spaces and tabs


def _import_lines(source: str) -> Iterator[re.Match]:
    """Every match of `_IMPORT` at the start of a line, as `_line_starts(source, _IMPORT)` finds them but in
    another order (the `from` lines first): only the lines whose first word (after spaces and tabs) is one
    of `_IMPORT_WORDS` can match, and `str.find` finds those words at C speed, where the regex engine tried
    every line (a tenth of the prefilter's CPU on the benchmark corpus)."""
    at_line_start = _at_line_start(_IMPORT)[0]
    for word in _IMPORT_WORDS:
        i = source.find(word)
        while i >= 0:
            line = source.rfind("\n", 0, i) + 1
            if line == i or not source[line:i].strip(" \t"):
                match = at_line_start.match(source, line)
                if match is not None:
                    yield match
            i = source.find(word, i + len(word))  # (neither word overlaps itself: every occurrence is seen)


def _as_python_reads_it(source: str) -> str:
    """`source` with "\\r\\n" and "\\r" as "\\n" (Python's line endings) and each identifier character NFKC
    normalised, as Python compares identifiers (PEP 3131). A character that may appear in an identifier
    normalises to identifier characters only (checked over all of Unicode), so no quote or bracket appears."""
    if "\r" in source:
        source = source.replace("\r\n", "\n").replace("\r", "\n")
    if source.isascii():  # C-fast: most texts stop here
        return source
    # The characters to replace, from the set of non-ASCII ones (found at C speed in the UTF-8 bytes: half
    # the CPU of `unicodedata.is_normalized` over the whole text, itself skipped when none would change).
    changing = [char for char in _non_ascii(source) if _normalises(char)]
    if not changing or unicodedata.is_normalized("NFKC", source):
        return source
    for char in changing:
        source = source.replace(char, unicodedata.normalize("NFKC", char))  # a few at most: faster than translate
    return source


def _non_ascii(text: str) -> set[str]:
    """The characters of `text` outside ASCII."""
    # ("surrogatepass": a lone surrogate, which a decoded text can hold, is a character like any other)
    return set(text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass"))


def _spmd_vmap_site(source: str, vmap: set[str]) -> bool:
    """A vmap call, or a `partial(<vmap>, ...)`, whose argument list may pass an spmd_axis_name."""
    for start, end in _calls(source, vmap):
        if _may_pass_spmd_axis_name(source, end) and _in_code(source, start):
            return True
    if "partial" not in source:  # every name bound to functools.partial is spelled with it somewhere
        return False
    alternation = "|".join(sorted(vmap))
    first_argument = rf"(?:\({_GAP})*{_DOTTED_PREFIX}(?:{alternation})(?:{_GAP}\))*{_GAP},"
    factory = re.compile(rf"(?:{_GAP}\))*{_GAP}\((?={_GAP}{first_argument})")
    for name in _bound_names(source, _PARTIAL):
        for start, end in _occurrences(source, name):
            match = factory.match(source, end)
            if match and _may_pass_spmd_axis_name(source, match.end()) and _in_code(source, start):
                return True
    return False


def _placed_plain_vmap(source: str, vmap: set[str]) -> bool:
    """SPMD006's words: a vmap call that is applied, a `device_put` call, a `NamedSharding` call and a mesh
    with Explicit axes (`AxisType.Explicit`, or `make_mesh`, whose axes are Explicit by default), or an import
    (in code) of another module of the project, where the mesh may be built."""
    if ("device_put" not in source and "reshard" not in source) or "NamedSharding" not in source:
        return False
    if "Explicit" not in source and "make_mesh" not in source and not _imports_project(source):
        return False  # (the test below, first without its scan for strings: most texts stop here)
    # Each call is asked whether it is code (`_in_code`: a scan of the whole text for strings) only once
    # every kind of call has been seen somewhere in the text.
    placed = [start for start, _ in _calls(source, _bound_names(source, _DEVICE_PUT))]
    named = [start for start, _ in _calls(source, _bound_names(source, _NAMED_SHARDING))]
    if not placed or not named:
        return False
    applied = [a for a, end in _calls(source, vmap) if _may_be_applied(source, a, end)]
    if not applied:
        return False
    placed = [start for start in placed if _in_code(source, start)]
    if not placed or not any(_in_code(source, start) for start in named):
        return False
    applied = [start for start in applied if _in_code(source, start)]
    if not applied:
        return False
    # The mesh may also be built in another module of the project (`from pkg.meshes import mesh`: the
    # analysis follows the import, `values.Evaluator.mesh_site`), whose text then holds its Explicit axes.
    return ("Explicit" in source or "make_mesh" in source or _imports_project(source, code_only=True)) and (
        _in_one_function(source, applied, placed)
    )


# A `def` line (after spaces only: a tab or a form feed counts as code at its column, as in `_closing_line`).
_DEF_LINE = r"( *)(?:async[ \t]+)?def\b"  # at a line's start


@functools.lru_cache(maxsize=64)
def _closing_line(indent: int) -> re.Pattern:
    """A line break, then a code line indented no deeper than `indent` spaces (a tab or a form feed is code
    at its column); group 1 starts the line."""
    return re.compile(rf"\n( {{0,{indent}}})[^ \n#]")


@functools.lru_cache(maxsize=8)
def _at_line_start(pattern: str) -> tuple[re.Pattern, re.Pattern]:
    """`pattern` at the text's start, and after a line break: a search for a literal "\\n" first, where a
    MULTILINE `^` makes the engine try every offset (three times slower on large texts)."""
    return re.compile(pattern), re.compile("\n" + pattern)


def _line_starts(source: str, pattern: str) -> Iterator[re.Match]:
    """Every match of `pattern` at the start of a line of `source` (as `^` with re.MULTILINE finds them; the
    groups of a match are those of the pattern, its `start()` may be one before the line's)."""
    first, after_break = _at_line_start(pattern)
    match = first.match(source)
    if match is not None:
        yield match
    yield from after_break.finditer(source)


def _in_one_function(source: str, applied: list[int], placed: list[int]) -> bool:
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
    regions = _def_regions(source)
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
    if not coarse or not _regions_exact(source, regions):
        return coarse
    return any(placed_scopes & scopes for scopes in applied_scopes)


def _regions_exact(source: str, regions: tuple[list[int], list[int], list[int]]) -> bool:
    """Whether every region (`_def_regions`) ends where a statement starts, so that each holds exactly its
    `def`'s lines: the line that ends it is indented with spaces only (no tab nor form feed), the line before
    it does not end in a backslash (a continuation), and it lies outside every bracket. Brackets are counted
    outside string literals and comments over the whole text; a count that goes below zero or does not end
    at zero (a literal the scan misreads, a text that does not parse) answers False."""
    ends = sorted({end for end in regions[1] if end < len(source)})
    for end in ends:
        first = _first_non_space(source, end)
        if source[first] in "\t\f" or source[end - 2 : end] == "\\\n":
            return False
    depth, k = 0, 0
    for token in _BRACKET.finditer(source):
        while k < len(ends) and ends[k] <= token.start():
            if depth != 0:
                return False
            k += 1
        kind = token.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _first_non_space(source: str, i: int) -> int:
    while source[i] == " ":
        i += 1
    return i


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


_HEADER_TOKEN = re.compile(rf"{_STRING}|#[^\n]*|(?P<open>[(\[{{])|(?P<close>[)\]}}])|(?P<colon>:)", re.DOTALL)


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
    for match in _line_starts(source, _DEF_LINE):
        start = match.start(1)
        if not _in_code(source, start):
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
    most `indent` spaces, or the end of the text."""
    closing = _closing_line(indent)
    line_end = source.find("\n", _header_end(source, start))
    while line_end >= 0:
        match = closing.search(source, line_end)
        if match is None:
            break
        if _in_code(source, match.start(1)):
            return match.start(1)
        line_end = source.find("\n", match.start(1))
    return len(source)


# A `def`'s name and the `(` of its parameters (no type parameters: `def f[T](` is read as before), and
# what may follow the `)` closing them: the header's `:` or a return annotation.
_DEF_PARAMETERS = re.compile(rf" *(?:async[ \t]+)?def(?:[ \t]|\\\n)+{_NAME}{_GAP}\(")
_AFTER_PARAMETERS = re.compile(rf"{_GAP}(?::|->)")


def _header_end(source: str, start: int) -> int:
    """For the `def` whose line starts at `start`: the end of its parameter list when that list goes on past
    the `def`'s line, else `start`. The lines inside the list are no statements, however little they are
    indented, so a region's end is looked for after it. Only a list whose end is found (`_end_of_arguments`:
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
    end = _end_of_arguments(source, header.end())
    if end is None or _AFTER_PARAMETERS.match(source, end) is None:
        return start
    return end


def _may_be_applied(source: str, start: int, end: int) -> bool:
    """Whether the vmap call whose name starts at `start` (its argument list opening at `end`) may be the
    callee of a call, as SPMD006's `jax.vmap(f)(x)` is (`analysis.placement.PlacementAnalysis._vmap_of`):
    its argument list is followed by `(` (closing brackets between), or the call is written right after a
    `(`, as the first argument of a wrapper (`jax.jit(jax.vmap(f))(x)`) or in brackets, whose use is not
    followed here. True as well when the end of its argument list cannot be found. (Jax's lax.py calls
    vmap only to keep the function: 10,000 lines parsed for nothing.)"""
    i = _gap_before(source, start)
    while i > 0 and source[i - 1] == ".":  # the dotted prefix: `jax.` of `jax.vmap`
        i = _gap_before(source, i - 1)
        while _is_word(source, i - 1):
            i -= 1
        i = _gap_before(source, i)
    if "(" in source[i:start]:  # (`_gap_before` steps back over opening brackets too)
        return True
    after = _end_of_arguments(source, end)
    return after is None or _CALL_OPEN.match(source, after) is not None


# `_TOKEN` without the tokens that do not change a bracket's depth (commas, `**`, the keyword): the same
# brackets found, with fewer steps of the loop below.
_BRACKET = re.compile(rf"{_STRING}|#[^\n]*|(?P<open>[(\[{{])|(?P<close>[)\]}}])", re.DOTALL)


def _end_of_arguments(source: str, start: int) -> int | None:
    """The offset just after the `)` closing the argument list that opens at `start`, or None."""
    depth = 1
    for token in _BRACKET.finditer(source, start):
        kind = token.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth == 0:
                return token.end()
    return None


def _calls(source: str, names: set[str]):
    """(start of the name, offset after the `(`) of every call of one of `names` (definitions left out)."""
    for name in names:
        for start, end in _occurrences(source, name):
            match = _CALL_OPEN.match(source, end)
            if match and not _is_definition(source, start):
                yield start, match.end()


def _is_definition(source: str, start: int) -> bool:
    """Whether the name at `start` is the one a `def` statement defines (a `def` in code, not a comment)."""
    found = _DEFINITION.search(source, max(0, start - 40), start)
    return found is not None and _in_code(source, found.start())


def _occurrences(source: str, name: str):
    """(start, end) of every whole-word occurrence of `name`."""
    size, length = len(name), len(source)
    for start in _found(source, name):
        end = start + size
        # `_is_word` of the characters before and after, inline: thousands of occurrences in a large module
        before = source[start - 1] if start > 0 else " "
        after = source[end] if end < length else " "
        if not (before.isalnum() or before == "_" or after.isalnum() or after == "_"):
            yield start, end


@functools.lru_cache(maxsize=64)
def _found(source: str, name: str) -> tuple[int, ...]:
    """The offset of every occurrence of `name` in `source`, each after the end of the one before (str.find:
    the regex engine is ten times slower). Cached: the aliases, the calls and the placements ask for the same
    names, and each search passes over the whole text (2.3 MB for jax's `shard_map.py` notebook)."""
    found = []
    start = source.find(name)
    while start >= 0:
        found.append(start)
        start = source.find(name, start + len(name))
    return tuple(found)


def _in_code(source: str, i: int) -> bool:
    """Whether offset `i` is outside every string literal and comment."""
    return _literals(source).in_code(i)


@functools.lru_cache(maxsize=4)
def _literals(source: str) -> _Literals:
    """The string literals and comments of `source`, found as far as questions need (cached per text)."""
    return _Literals(source)


class _Literals:
    """The string literals and comments of a text, from its start as far as `in_code` has needed: one regex
    scan, asked for only once a file is about to be kept (a file's docstring examples do not keep it), and
    left where it stands once it has passed the offsets asked about (a kept file's first vmap call is often
    near its top: jax's 2.3 MB `shard_map.py` notebook)."""

    __slots__ = ("starts", "ends", "_matches", "_upto")

    def __init__(self, source: str) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        self._matches = _STRING_OR_COMMENT.finditer(source)
        self._upto = -1  # every literal or comment starting at or before this offset is in the lists

    def in_code(self, i: int) -> bool:
        """Whether offset `i` is outside every string literal and comment."""
        if i > self._upto:
            self._scan_past(i)
        k = bisect.bisect_right(self.starts, i) - 1
        return k < 0 or i >= self.ends[k]

    def _scan_past(self, i: int) -> None:
        for match in self._matches:  # text order, none overlapping: the lists stay sorted
            self.starts.append(match.start())
            self.ends.append(match.end())
            if match.start() > i:
                self._upto = match.start()
                return
        self._upto = sys.maxsize


def _strings_and_comments(source: str) -> tuple[list[int], list[int]]:
    """Start and end offsets of every string literal and comment of `source`, in text order."""
    literals = _literals(source)
    literals.in_code(len(source))
    return literals.starts, literals.ends


def _is_word(source: str, i: int) -> bool:
    return 0 <= i < len(source) and (source[i].isalnum() or source[i] == "_")


# After a name: `as` and the name it is imported as (`import ... vmap as v`).
_IMPORTED_AS = re.compile(rf"(?:\s|\\\n|#[^\n]*)+as(?:\s|\\\n)+({_NAME})")


def _bound_names(source: str, bases: tuple[str, ...]) -> set[str]:
    """`bases` and every name the text may bind to one of them, to a fixed point: `import ... vmap as v`,
    `v = jax.vmap`, `w = v`, `a = b = vmap`, `v: Any = vmap`, `x = 1; v = vmap`, `v = (jax.vmap)`,
    `(v := jax.vmap)` (the bindings `spmdfix.analysis.scopes.ModuleIndex.qualname` follows).

    Raises `_Unknown` when some name is assigned in a way whose targets the physical line does not show
    (a value split over lines, say): the caller keeps the file.
    """
    names = set(bases)
    for base in bases:
        for start in _found(source, base):  # (not only whole words: `jax_vmap as v` is kept too)
            alias = _IMPORTED_AS.match(source, start + len(base))
            if alias is not None:
                names.add(alias.group(1))
    todo = list(names)
    while todo:
        name = todo.pop()
        for start, end in _occurrences(source, name):
            for target in _alias_targets(source, name, start, end):
                if target not in names:
                    names.add(target)
                    todo.append(target)
    return names


def _alias_targets(source: str, name: str, start: int, end: int) -> list[str]:
    """The names bound to the (dotted) name at `start`..`end` when it is an assignment's whole value or a
    walrus's value; raises `_Unknown` for an assignment whose targets its own statement does not show."""
    equals = _equals_before(source, start)
    if equals < 0:
        return []
    if source[equals - 1] == ":":
        target = _WALRUS_TARGET.search(source, max(0, equals - 400), equals - 1)
        if target is None:
            raise _Unknown(name)
        return [target.group(1)]
    if not _STATEMENT_END.match(source, end):
        return []  # the value goes on: a call, an attribute, an operator
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", end)
    line = source[line_start : len(source) if line_end < 0 else line_end]
    targets = []
    offset = 0
    for statement in line.split(";"):  # only the statement holding this occurrence
        if offset <= start - line_start <= offset + len(statement):
            match = _ASSIGNMENT.match(statement)
            if match and match.group(2).rsplit(".", 1)[-1] == name:
                targets = _TARGET.findall(match.group(1))
        offset += len(statement) + 1
    if not targets:
        raise _Unknown(name)
    return targets


def _equals_before(source: str, start: int) -> int:
    """The offset of the `=` (of `=`, `: T =` or `:=`) just before the dotted name at `start`, stepping back
    over its dotted prefix (`jax.`), opening brackets and gaps; -1 when something else comes first."""
    i = _gap_before(source, start)
    while i > 0 and source[i - 1] == ".":
        i = _gap_before(source, i - 1)
        while _is_word(source, i - 1):
            i -= 1
        i = _gap_before(source, i)
    if i > 0 and source[i - 1] == "=" and (i < 2 or source[i - 2] not in "=!<>"):
        return i - 1
    return -1


def _gap_before(source: str, i: int) -> int:
    """Step back over whitespace, opening brackets, line continuations and the comment a line may end in."""
    while i > 0:
        c = source[i - 1]
        if c == "\n":
            i -= 1
            hash_at = source.find("#", source.rfind("\n", 0, i) + 1, i)
            if hash_at >= 0:  # a comment (or a '#' in a string: then the file is kept for nothing)
                i = hash_at
        elif c in " \t\f\\(":
            i -= 1
        else:
            break
    return i


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
_ATTRIBUTE_MAPPING = re.compile(rf"{_GAP}{_NAME}(?:{_GAP}\.{_GAP}{_NAME})+{_GAP}[,)]")
# At an argument's start: a starred one, `*args`, after any gap (a `**kw` is a `stars` token of `_TOKEN`).
_STARRED_ARGUMENT = re.compile(rf"{_GAP}\*(?!\*)")
# ... the end of the list (after a trailing comma, or none at all).
_NO_ARGUMENT = re.compile(rf"{_GAP}\)")
# ... a keyword argument, `name =` (not `==`, nor a walrus's `:=`), after whitespace only: with a comment
# or a line continuation before it, the argument counts as positional (the file kept for nothing).
_KEYWORD_ARGUMENT = re.compile(rf"\s*{_NAME}[ \t\f]*=(?!=)")


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
