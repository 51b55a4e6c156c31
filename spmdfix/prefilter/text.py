"""The text as the prefilter reads it: as Python reads it (line endings, NFKC identifiers), where its code is
(outside string literals and comments, found as far as questions need), and the lexical pieces the other
prefilter modules build on: names, the gaps between tokens, string literals, brackets, whole-word occurrences.
"""

from __future__ import annotations

import bisect
import functools
import re
import sys
import unicodedata
from collections.abc import Iterator

NAME = r"[^\W\d]\w*"  # a Python identifier (Unicode letters included)
# What may sit between two tokens inside brackets: whitespace, line continuations, comments.
GAP = r"(?:\s|\\\n|#[^\n]*)*"
DOTTED_PREFIX = rf"(?:{NAME}{GAP}\.{GAP})*"
# A string literal; a backslash escapes any character, a line break included (re.DOTALL). Each is written
# "unrolled" (a run of plain characters, then an escape or a lone quote and another run): the same matches as
# `'''(?:\\.|[^\\])*?'''`, without a step of the regex engine's loop per character (five times faster).
STRING = (
    r"'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    r'|"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
)
# String literals and comments, scanned from the start of the text: an occurrence inside one is not code.
_STRING_OR_COMMENT = re.compile(rf"{STRING}|#[^\n]*", re.DOTALL)
ASCII_BYTES = bytes(range(128))


@functools.lru_cache(maxsize=4096)
def normalises(char: str) -> bool:
    """Whether `as_python_reads_it` replaces `char` (an identifier character that NFKC changes)."""
    return unicodedata.normalize("NFKC", char) != char and ("a" + char).isidentifier()


def as_python_reads_it(source: str) -> str:
    """`source` with "\\r\\n" and "\\r" as "\\n" (Python's line endings) and each identifier character NFKC
    normalised, as Python compares identifiers (PEP 3131). A character that may appear in an identifier
    normalises to identifier characters only (checked over all of Unicode), so no quote or bracket appears."""
    if "\r" in source:
        source = source.replace("\r\n", "\n").replace("\r", "\n")
    if source.isascii():  # C-fast: most texts stop here
        return source
    # The characters to replace, from the set of non-ASCII ones (found at C speed in the UTF-8 bytes: half
    # the CPU of `unicodedata.is_normalized` over the whole text, itself skipped when none would change).
    changing = [char for char in _non_ascii(source) if normalises(char)]
    if not changing or unicodedata.is_normalized("NFKC", source):
        return source
    for char in changing:
        source = source.replace(char, unicodedata.normalize("NFKC", char))  # a few at most: faster than translate
    return source


def _non_ascii(text: str) -> set[str]:
    """The characters of `text` outside ASCII."""
    # ("surrogatepass": a lone surrogate, which a decoded text can hold, is a character like any other)
    return set(text.encode("utf-8", "surrogatepass").translate(None, ASCII_BYTES).decode("utf-8", "surrogatepass"))


@functools.lru_cache(maxsize=8)
def line_start_patterns(pattern: str) -> tuple[re.Pattern, re.Pattern]:
    """`pattern` at the text's start, and after a line break: a search for a literal "\\n" first, where a
    MULTILINE `^` makes the engine try every offset (three times slower on large texts)."""
    return re.compile(pattern), re.compile("\n" + pattern)


def line_starts(source: str, pattern: str) -> Iterator[re.Match]:
    """Every match of `pattern` at the start of a line of `source` (as `^` with re.MULTILINE finds them; the
    groups of a match are those of the pattern, its `start()` may be one before the line's)."""
    first, after_break = line_start_patterns(pattern)
    match = first.match(source)
    if match is not None:
        yield match
    yield from after_break.finditer(source)


def first_non_space(source: str, i: int) -> int:
    while source[i] == " ":
        i += 1
    return i


# `_TOKEN` without the tokens that do not change a bracket's depth (commas, `**`, the keyword): the same
# brackets found, with fewer steps of the loop below.
BRACKET = re.compile(rf"{STRING}|#[^\n]*|(?P<open>[(\[{{])|(?P<close>[)\]}}])", re.DOTALL)


def end_of_arguments(source: str, start: int) -> int | None:
    """The offset just after the `)` closing the argument list that opens at `start`, or None."""
    depth = 1
    for token in BRACKET.finditer(source, start):
        kind = token.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth == 0:
                return token.end()
    return None


def occurrences(source: str, name: str, low: int = 0, high: int | None = None):
    """(start, end) of every whole-word occurrence of `name` starting at an offset in [low, high) (the whole
    text by default; a scope's span skips the occurrences outside it without looking at each: jax's
    api_test.py names a local `f` thousands of times)."""
    size, length = len(name), len(source)
    found = offsets_of(source, name)
    if low or high is not None:
        found = found[bisect.bisect_left(found, low) : bisect.bisect_left(found, length if high is None else high)]
    for start in found:
        end = start + size
        # `is_word` of the characters before and after, inline: thousands of occurrences in a large module
        before = source[start - 1] if start > 0 else " "
        after = source[end] if end < length else " "
        if not (before.isalnum() or before == "_" or after.isalnum() or after == "_"):
            yield start, end


@functools.lru_cache(maxsize=64)
def offsets_of(source: str, name: str) -> tuple[int, ...]:
    """The offset of every occurrence of `name` in `source`, each after the end of the one before (str.find:
    the regex engine is ten times slower). Cached: the aliases, the calls and the placements ask for the same
    names, and each search passes over the whole text (2.3 MB for jax's `shard_map.py` notebook)."""
    found = []
    start = source.find(name)
    while start >= 0:
        found.append(start)
        start = source.find(name, start + len(name))
    return tuple(found)


def in_code(source: str, i: int) -> bool:
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


def is_word(source: str, i: int) -> bool:
    return 0 <= i < len(source) and (source[i].isalnum() or source[i] == "_")


def gap_before(source: str, i: int) -> int:
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
