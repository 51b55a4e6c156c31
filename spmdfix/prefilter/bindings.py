"""What a text imports and binds: whether an import may name a module of the project (`imports_project`), and
every name the text may bind to one of a few bases (`bound_names`: `import ... as`, `=`, `:=`), raising
`UnknownTargets` when an assignment's targets are not shown on its line (the caller keeps the file).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

from spmdfix.prefilter.text import GAP, NAME, gap_before, in_code, is_word, line_start_patterns, occurrences, offsets_of

# After a name that ends an assignment's value: closing brackets, then the end of the statement.
_STATEMENT_END = re.compile(rf"(?:{GAP}\))*(?:[ \t\f]|\\\n)*(?:#[^\n]*)?(?:\n|;|\Z)")
# `a = b = jax.vmap` / `v: Any = vmap` (a whole simple statement, the value a dotted name, not a call).
_ASSIGNMENT = re.compile(
    rf"[ \t\f]*((?:{NAME}[ \t\f]*(?::[^=]*)?=[ \t\f]*)+)\(?[ \t\f]*([\w.]+)[ \t\f]*\)?[ \t\f]*(?:#.*)?$"
)
_TARGET = re.compile(rf"({NAME})[ \t\f]*(?::[^=]*)?=")
_WALRUS_TARGET = re.compile(rf"({NAME}){GAP}$")


class UnknownTargets(Exception):
    """An assignment of a tracked name whose targets the text does not show: keep the file."""


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


def imports_project(source: str, code_only: bool = False) -> bool:
    """Whether an import statement may name a module of the project: a relative import, or a top-level
    module that is not a known one. With `code_only`, statements inside string literals and comments (a
    docstring's "from NumPy") are passed over; without it they count (kept for nothing then), which saves
    the scan for string literals on the many texts this is asked about first."""
    for match in _import_lines(source):
        if code_only and not in_code(source, match.start(1) if match.group(1) is not None else match.start(2)):
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
    """Every match of `_IMPORT` at the start of a line, as `line_starts(source, _IMPORT)` finds them but in
    another order (the `from` lines first): only the lines whose first word (after spaces and tabs) is one
    of `_IMPORT_WORDS` can match, and `str.find` finds those words at C speed, where the regex engine tried
    every line (a tenth of the prefilter's CPU on the benchmark corpus)."""
    at_line_start = line_start_patterns(_IMPORT)[0]
    for word in _IMPORT_WORDS:
        i = source.find(word)
        while i >= 0:
            line = source.rfind("\n", 0, i) + 1
            if line == i or not source[line:i].strip(" \t"):
                match = at_line_start.match(source, line)
                if match is not None:
                    yield match
            i = source.find(word, i + len(word))  # (neither word overlaps itself: every occurrence is seen)


# After a name: `as` and the name it is imported as (`import ... vmap as v`).
_IMPORTED_AS = re.compile(rf"(?:\s|\\\n|#[^\n]*)+as(?:\s|\\\n)+({NAME})")


def bound_names(source: str, bases: tuple[str, ...]) -> set[str]:
    """`bases` and every name the text may bind to one of them, to a fixed point: `import ... vmap as v`,
    `v = jax.vmap`, `w = v`, `a = b = vmap`, `v: Any = vmap`, `x = 1; v = vmap`, `v = (jax.vmap)`,
    `(v := jax.vmap)` (the bindings `spmdfix.analysis.scopes.ModuleIndex.qualname` follows).

    Raises `UnknownTargets` when some name is assigned in a way whose targets the physical line does not show
    (a value split over lines, say): the caller keeps the file.
    """
    names = set(bases)
    for base in bases:
        for start in offsets_of(source, base):  # (not only whole words: `jax_vmap as v` is kept too)
            alias = _IMPORTED_AS.match(source, start + len(base))
            if alias is not None:
                names.add(alias.group(1))
    todo = list(names)
    while todo:
        name = todo.pop()
        for start, end in occurrences(source, name):
            for target in _alias_targets(source, name, start, end):
                if target not in names:
                    names.add(target)
                    todo.append(target)
    return names


def _alias_targets(source: str, name: str, start: int, end: int) -> list[str]:
    """The names bound to the (dotted) name at `start`..`end` when it is an assignment's whole value or a
    walrus's value; raises `UnknownTargets` for an assignment whose targets its own statement does not show."""
    equals = _equals_before(source, start)
    if equals < 0:
        return []
    if source[equals - 1] == ":":
        target = _WALRUS_TARGET.search(source, max(0, equals - 400), equals - 1)
        if target is None:
            raise UnknownTargets(name)
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
        raise UnknownTargets(name)
    return targets


def _equals_before(source: str, start: int) -> int:
    """The offset of the `=` (of `=`, `: T =` or `:=`) just before the dotted name at `start`, stepping back
    over its dotted prefix (`jax.`), opening brackets and gaps; -1 when something else comes first."""
    i = gap_before(source, start)
    while i > 0 and source[i - 1] == ".":
        i = gap_before(source, i - 1)
        while is_word(source, i - 1):
            i -= 1
        i = gap_before(source, i)
    if i > 0 and source[i - 1] == "=" and (i < 2 or source[i - 2] not in "=!<>"):
        return i - 1
    return -1
