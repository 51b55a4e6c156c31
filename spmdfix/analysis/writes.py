"""The spellings by which a module's text may write an attribute of an object, or a module's top-level name,
other than the one the analysis reads (writes10).

A value read from a class body, a dataclass field's default, an instance built at module level
(`CFG = TrainConfig()`, read as `CFG.data_axis`) or a module constant (`config.DATA`) holds only when no code
of the project writes it. Besides `obj.attr = ...` (and augmented assignments), Python writes an attribute by
`setattr` (`object.__setattr__`, `monkeypatch.setattr`, an alias `set_ = setattr`, a loop over overrides), by
the object's dict (`vars(CFG)['data_axis'] = ...`, `CFG.__dict__.update(...)`), by `mock.patch(...)` /
`mock.patch.object(...)` for the time of a `with`, and by `argparse` parsing into a namespace
(`parser.parse_args(namespace=CFG)`); a module's own top-level name also by `globals()[...] = ...` and by a
`global NAME` statement in one of its functions; a container constant by a store into it or a mutating method
(`config.SPECS['act'] = P('data')`, `SPECS.update(...)`). Each is measured to change the value JAX sees
(safety/trials/writes10). The tests here are on the text (as `importers.attribute_writer` reads the modules
importing a module without parsing them): a spelling anywhere in a module makes the value unknown there, never
a guess. Pure.
"""

from __future__ import annotations

import re

# (pattern, the words of a reason: "<module> <words>"), the spellings that may write any attribute
_SPELLINGS = (
    (re.compile(r"setattr"), "calls `setattr`, which may set `.{attr}`"),
    (re.compile(r"__dict__"), "reads an object's `__dict__`, whose writes may set `.{attr}`"),
    (re.compile(r"\bvars\s*\("), "calls `vars`, whose dict's writes may set `.{attr}`"),
    (re.compile(r"\bpatch(?:\.\w+)?\s*\("), "calls `patch` (`mock.patch`), which may set `.{attr}`"),
    (re.compile(r"\bnamespace\s*="), "parses arguments into a namespace (`namespace=`), which may set `.{attr}`"),
)
# The names after `nonlocal` or `global` (`declared_names`).
_DECLARED = re.compile(r"[ \t]+([\w \t,]+)")
_MUTATORS = "update|setdefault|pop|popitem|clear|append|extend|insert|remove|reverse|sort|__setitem__|__delitem__"


def attribute_assigns(source: str, name: str) -> int:
    """How many times `.name = ...` (or an augmented assignment to `.name`) is written in the text: an object
    may then carry an attribute `name` of its own, which its class does not tell."""
    return len(re.findall(rf"\.\s*{re.escape(name)}\s*(?:[-+*/%@&|^]|<<|>>|//|\*\*)?=(?!=)", source))


def attribute_write(source: str, attr: str) -> str | None:
    """How the text may write `.attr` on some object, in words completing "<the module> ..." (an assignment
    `.attr = ...`, or one of the spellings that name no attribute: `setattr`, `__dict__`, `vars(...)`,
    `patch(...)`, `namespace=`); None when it writes none."""
    if attribute_assigns(source, attr):
        return f"assigns `.{attr}` on some object"
    return other_spelling(source, attr)


def other_spelling(source: str, attr: str) -> str | None:
    """`attribute_write` but for the plain `.attr = ...`, which callers reading the module itself count on
    their own terms (`members._attribute_read` names the module assigning it)."""
    for pattern, words in _SPELLINGS:
        if pattern.search(source):
            return words.format(attr=attr)
    return None


def own_name_write(source: str, name: str) -> str | None:
    """How a module's own text may rebind its top-level `name` other than by the statements binding it that
    the analysis counts: `globals()` (its dict written), `global name` in a function; None otherwise."""
    if re.search(r"\bglobals\s*\(", source):
        return "writes `globals()`, which may set `" + name + "`"
    if re.search(rf"\bglobal\b[^\n;]*\b{re.escape(name)}\b", source):
        return f"declares `global {name}` in a function, which may rebind it"
    return None


def declared_names(source: str) -> frozenset[str]:
    """The names the `nonlocal` and `global` statements of `source` declare: a function declaring one may rebind
    it when called, which the scopes' bindings do not show (`shapes.StaticShapes.resolve` leaves such a name
    unread: breaker10 t15, t21, t22). Each occurrence of the word first on its line or after a `;`, read up to
    the end of its name list. Found with `str.find` (a search with a MULTILINE `^` tried every offset: 47 ms on
    jax's pjit_test.py); a word in a comment or a string that starts a line counts too, which only leaves a name
    unread."""
    names: set[str] = set()
    for word in ("nonlocal", "global"):
        start = source.find(word)
        while start >= 0:
            before = source[source.rfind("\n", 0, start) + 1 : start].rstrip(" \t")
            listed = _DECLARED.match(source, start + len(word)) if not before or before.endswith(";") else None
            if listed is not None:
                names.update(n.strip() for n in listed.group(1).split(","))
            start = source.find(word, start + len(word))
    return frozenset(names)


def container_write(source: str, name: str) -> str | None:
    """How the text may change the container a name holds (`NAME[key] = ...`, `NAME.update(...)`, a store
    through `.NAME[...]`), in words completing "<the module> ..."; None when it does not."""
    word = re.escape(name)
    if re.search(rf"\b{word}\s*\[[^\]\n]*\]\s*(?:[-+*/%@&|^]|<<|>>|//|\*\*)?=(?!=)", source):
        return f"stores into `{name}[...]`"
    if re.search(rf"\b{word}\s*\.\s*(?:{_MUTATORS})\s*\(", source):
        return f"calls a method of `{name}` that changes it"
    return None


# `.attr = ...` or an augmented assignment to `.attr` (the name is spliced in), spaces and a backslash's
# continuation around the name but no line break (a sentence's `.` ending a comment line before `attr = ...`
# is none); with `{owner}` a lookbehind that leaves out `self.attr` / `cls.attr` (`project_write`)
_BLANK = r"(?:[ \t]|\\\n)*"
_ASSIGN = r"{owner}\.{blank}{name}{blank}(?:[-+*/%@&|^]|<<|>>|//|\*\*)?=(?!=)"
_NOT_SELF = r"(?<!\bself)(?<!\bcls)"
_LITERAL_NAME = re.compile(r"""\s*(?:[rRuU]?)(['"])([A-Za-z_]\w*)\1\s*$""")
_OPEN, _CLOSE = "([{", ")]}"


def project_write(source: str, attr: str, module_name: bool = False) -> tuple[int, str] | None:
    """Where a module's text may store `.attr` on an object the analysis does not follow (the module handed
    it: `def tweak(cfg): cfg.data_axis = ...`, writes10 w08, w09), as (line, words completing "<module>
    line N ..."): an assignment `.attr = ...` (an augmented one too), a `setattr(obj, 'attr', ...)`, or a
    `setattr` whose name is not a string literal (`setattr(obj, key, value)`), also any other mention of
    `setattr` (`object.__setattr__`, an alias, a method `__setattr__`): it may set any attribute. The first
    in the text; None when there is none. On the text, never parsed: a comment or a string saying so counts
    too (a module too many, never one missed). `module_name`: `attr` is a module's top-level name, which
    `self.attr = ...` / `cls.attr = ...` in a method cannot store (`self` is an instance of a class, never a
    module object), so those are left out."""
    owner = _NOT_SELF if module_name else ""
    found = re.search(_ASSIGN.format(owner=owner, blank=_BLANK, name=re.escape(attr)), source)
    best = (found.start(), f"assigns `.{attr}` on an object spmdfix does not follow") if found else None
    setter = setattr_write(source, attr)
    if setter is not None and (best is None or setter[0] < best[0]):
        best = setter
    if best is None:
        return None
    return source.count("\n", 0, best[0]) + 1, best[1]


def setattr_write(source: str, attr: str) -> tuple[int, str] | None:
    """(offset, words) of the first mention of `setattr` in the text that may set `.attr`: a call
    `setattr(obj, NAME, value)` whose NAME is `'attr'` or not a string literal, or any mention that is not a
    plain call (`object.__setattr__`, `set_ = setattr`, `def __setattr__`); None when every mention is a call
    naming another attribute by a literal."""
    at = source.find("setattr")
    while at >= 0:
        plain = not source[max(0, at - 2) : at].endswith("_") and not source[at - 1 : at].isalnum()
        after = re.compile(r"\s*\(").match(source, at + 7)
        if not plain or after is None:
            return at, f"mentions `setattr` other than in a plain call (`__setattr__`, an alias), which may set `.{attr}`"
        name = _second_argument(source, after.end())
        literal = _LITERAL_NAME.match(name) if name is not None else None
        if literal is None:
            return at, f"calls `setattr` with an attribute name that is not a string literal, which may be `{attr}`"
        if literal.group(2) == attr:
            return at, f"calls `setattr(..., '{attr}', ...)`"
        at = source.find("setattr", at + 7)
    return None


def _second_argument(source: str, start: int) -> str | None:
    """The text of the second argument of the call whose arguments start at `start` (after its `(`), when the
    first argument holds no string and the call has a third; None when it cannot be told so simply."""
    depth, commas, begin = 0, [], start
    for i in range(start, min(len(source), start + 400)):
        char = source[i]
        if char in "'\"" and not commas:
            return None  # a string in the first argument: not read
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            if depth == 0:
                return None  # the call ends before a third argument
            depth -= 1
        elif char == "," and depth == 0:
            commas.append(i)
            if len(commas) == 2:
                return source[commas[0] + 1 : i]
        elif char == "#" and not commas:
            return None
    return None
