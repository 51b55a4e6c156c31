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

import functools
import re

# (pattern, the words of a reason: "<module> <words>"), the spellings that may write any attribute; `setattr`
# and `patch` are read further (`_may_set`: the attribute a call names as a literal)
_SETATTR = re.compile(r"setattr")
_PATCH = re.compile(r"\bpatch(?:\.(\w+))?\s*\(")
_VARS = re.compile(r"\bvars\s*\(")
_DICT = re.compile(r"__dict__")
_SPELLINGS = (
    (_SETATTR, "calls `setattr`, which may set `.{attr}`"),
    (_DICT, "reads an object's `__dict__`, whose writes may set `.{attr}`"),
    (_VARS, "calls `vars`, whose dict's writes may set `.{attr}`"),
    (_PATCH, "calls `patch` (`mock.patch`), which may set `.{attr}`"),
    (re.compile(r"\bnamespace\s*="), "parses arguments into a namespace (`namespace=`), which may set `.{attr}`"),
)
# A comment line (its first character past the indentation is `#`), blanked by `code_lines`
_COMMENT_LINE = re.compile(r"^[ \t]*#[^\n]*", re.MULTILINE)
# `patch("pkg.config.DATA", ...)`: a literal target, whose last name is the one attribute it sets
_PATCH_TARGET = re.compile(r"""\s*[rRuU]?(['"])([\w.]+)\1\s*[,)]""")
# `patch.object(obj, "DATA", ...)`: the attribute named by a literal
_PATCH_OBJECT = re.compile(r"""\s*[\w.]+\s*,\s*[rRuU]?(['"])(\w+)\1\s*[,)]""")
# `patch.dict(os.environ, ...)` / `patch.dict("pkg.config.SPECS", ...)`: the container, by its last name
_PATCH_DICT = re.compile(r"""\s*[rRuU]?['"]?([\w.]+)['"]?\s*[,)]""")


@functools.lru_cache(maxsize=4096)
def code_lines(source: str) -> str:
    """`source` with its comment lines blanked (every character but the line break a space: offsets and line
    numbers stay): a line whose first character past the indentation is `#` writes nothing, also inside a
    string (an `exec`'d text's comment line is one too). Comments after code on a line are kept: telling them
    from a `#` in a string would need the tokenizer (a module too many, never one missed)."""
    if "#" not in source:
        return source
    return _COMMENT_LINE.sub(lambda m: " " * len(m.group()), source)
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
    if attribute_assigns(code_lines(source), attr):
        return f"assigns `.{attr}` on some object"
    return other_spelling(source, attr)


def other_spelling(source: str, attr: str) -> str | None:
    """`attribute_write` but for the plain `.attr = ...`, which callers reading the module itself count on
    their own terms (`members._attribute_read` names the module assigning it). Comment lines write nothing
    (`code_lines`); a `setattr` call naming another attribute as a literal (`monkeypatch.setattr(train,
    "load", fake)`) and a `patch` whose literal target names another (`mock.patch("pkg.train.load")`,
    `patch.object(obj, "load")`, `patch.dict(os.environ, ...)`) do not set `.attr` (newuser11: any test
    module patching anything made every config constant unknown, a project's findings records)."""
    words = _first_spelling(source, attr)
    return words.format(attr=attr) if words is not None else None


# The tests on a module's text are asked of every importer of a module for each name read from it, and again
# by each index a language server builds for a typed text, over the same texts: 34,000 searches and about
# 180 ms of each typed edit of bench/lsp_latency.py's 1,000-module project. They are pure, so their answers
# are kept per text (bounded: a cache holds the texts it was asked about).
_TEXTS_KEPT = 4096


@functools.lru_cache(maxsize=_TEXTS_KEPT)
def _first_spelling(source: str, attr: str) -> str | None:
    """The words of the first of `_SPELLINGS` the text's code lines hold that may set `.attr` (attr not
    filled in), or None."""
    code = None
    for pattern, words in _SPELLINGS:
        if not pattern.search(source):
            continue
        code = code if code is not None else code_lines(source)
        if pattern is _SETATTR:
            if setattr_write(setattr_calls(code), attr) is not None:
                return words
        elif pattern is _PATCH:
            if any(_patch_may_set(code, m, attr) for m in _PATCH.finditer(code)):
                return words
        elif pattern is _VARS:
            if any(_vars_may_write(code, m) for m in _VARS.finditer(code)):
                return words
        elif pattern is _DICT:
            if any(_dict_may_write(code, m) for m in _DICT.finditer(code)):
                return words
        elif pattern.search(code):
            return words
    return None


def _patch_may_set(source: str, call: re.Match, attr: str) -> bool:
    """Whether the `patch` call `call` matched may set `.attr`: `patch("a.b.attr")`, `patch.object(obj,
    "attr")`, `patch.dict(...)` of a container named `attr`, or any call whose target is not read so."""
    kind, rest = call.group(1), call.end()
    if kind is None:
        target = _PATCH_TARGET.match(source, rest)
        return target is None or target.group(2).rpartition(".")[2] == attr
    if kind == "object":
        named = _PATCH_OBJECT.match(source, rest)
        return named is None or named.group(2) == attr
    if kind == "dict":
        container = _PATCH_DICT.match(source, rest)
        return container is None or container.group(1).rpartition(".")[2] in (attr, "__dict__")
    return True


# Where the dict `vars(obj)` returns is only read (`_vars_may_write`): the whole first argument of one of these
# calls, which neither keep nor change the dict they are given, and give none of its values to other code (a
# value may be a mutable container of the module: `vars(config).get('SPECS')['act'] = ...`)
_READERS = frozenset("print str repr len sorted list tuple set frozenset iter enumerate any all".split())
_READER_MODULES = {"pprint": ("pprint", "pformat", "pp")}
# the reader called just before `vars(`: `print(`, `pprint.pprint(` (group 1 the module, group 2 the function)
_READER_CALL = re.compile(r"(?:\b(\w+)\s*\.\s*)?\b(\w+)\s*\(\s*$")
# the one method of the dict, just after `vars(...)`, that gives neither the dict nor its values
_READ_METHOD = re.compile(r"\s*\.\s*keys\s*\(")


def _vars_may_write(source: str, call: re.Match) -> bool:
    """Whether the `vars(...)` call `call` matched may write an attribute through the dict it returns, or
    change a container an attribute holds: any use but the reads listed here, which give neither the dict nor
    its values to other code (newuser11: a launcher's `print(vars(args))` made every config constant of the
    project unknown, its findings SPMD910 records and the run exit 0):
    - `vars(obj)` as the whole first argument of `print`, `str`, `repr`, `len`, `sorted`, `list`, ... or
      `pprint.pprint` (`_READERS`), when the text does not bind that name itself (`_binds`);
    - `vars(obj).keys()`;
    - `in vars(obj)` (`for key in vars(args):`, a membership test: keys only).
    Everything else counts: `vars(obj)[k] = v`, `d = vars(obj)`, `f(vars(obj))`, `**vars(obj)` and
    `.items()` / `.get(...)` (the values reach other code), and `vars()` without an argument (the caller's
    namespace, a module's globals at its top level)."""
    close = _closing_bracket(source, call.end())
    if close is None or not source[call.end() : close].strip():
        return True
    return not _dict_only_read(source, call.start(), close + 1)


def _dict_may_write(source: str, found: re.Match) -> bool:
    """Whether the `__dict__` that `found` matched may write an attribute: `obj.__dict__` (a dotted name's)
    whose dict is only read as `_vars_may_write` lets through (`print(args.__dict__)`, `sorted(cfg.__dict__)`,
    `cfg.__dict__.keys()`, `in cfg.__dict__`) writes nothing; any other use, or a `__dict__` not read off a
    dotted name (`get().__dict__`, a class body's own), counts."""
    dot = source.rfind(".", 0, found.start())
    if dot < 0 or source[dot + 1 : found.start()].strip():
        return True
    start = dot
    while start > 0 and (source[start - 1].isalnum() or source[start - 1] in "_."):
        start -= 1
    if start == dot or source[start - 1 : start] in (")", "]", "'", '"'):
        return True
    return not _dict_only_read(source, start, found.end())


def _dict_only_read(source: str, start: int, end: int) -> bool:
    """Whether the dict the expression `source[start:end]` gives (`vars(obj)`, `obj.__dict__`) is only read:
    its `.keys()`, `in` it, or it as the whole first argument of a reader (`_READERS`, `_READER_MODULES`) the
    text does not bind itself."""
    if _READ_METHOD.match(source, end):
        return True
    if source[end : end + 40].lstrip(" \t\\\n")[:1] in (".", "[", "("):
        return False  # (the dict's other methods, an item, a call of its result)
    before = source[max(0, start - 60) : start]
    if re.search(r"\bin\s*$", before):
        return True
    reader = _READER_CALL.search(before)
    if reader is None or not re.match(r"\s*[,)]", source[end : end + 40]):
        return False
    module, name = reader.group(1), reader.group(2)
    known = name in _READERS if module is None else name in _READER_MODULES.get(module, ())
    return known and not _binds(source, module or name, module is not None)


def _binds(source: str, name: str, module: bool) -> bool:
    """Whether the text may bind `name` to something other than the builtin (or, `module`, the standard module
    `import name` binds) that `_vars_may_write` knows: any mention of it but a call (`print(`) or, for a
    module, an attribute (`json.`) and its own `import json` line; a `def print(`, a parameter, an assignment,
    an import naming it, a star import all count."""
    if re.search(r"\bimport\s*\*", source):
        return True
    follows = "." if module else "("
    for found in re.finditer(rf"(?<![.\w]){re.escape(name)}\b", source):
        line_start = source.rfind("\n", 0, found.start()) + 1
        line_end = source.find("\n", found.end())
        line = source[line_start : line_end if line_end >= 0 else len(source)]
        if module and re.fullmatch(rf"[ \t]*import[ \t]+{re.escape(name)}[ \t]*(?:#.*)?", line):
            continue
        if re.search(r"\b(?:def|class)\s+$", source[line_start : found.start()]):
            return True
        if not source[found.end() : found.end() + 20].lstrip(" \t").startswith(follows):
            return True
    return False


def _closing_bracket(source: str, start: int) -> int | None:
    """The offset of the `)` closing the call whose arguments start at `start` (after its `(`), stepping over
    nested brackets; None when a string or a comment is met first (not read) or none is found within 400
    characters."""
    depth = 0
    for i in range(start, min(len(source), start + 400)):
        char = source[i]
        if char in "'\"#":
            return None
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            if depth == 0:
                return i if char == ")" else None
            depth -= 1
    return None


@functools.lru_cache(maxsize=_TEXTS_KEPT)
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


# A call of the builtin `exec` or `eval` (not a method: `model.eval()`), the name first on its line or after a
# space, `;`, `(`, `=`, `,` or `:` (`dynamic_code`).
_DYNAMIC = re.compile(r"(?:^|(?<=[\s;(=,:]))(exec|eval)\s*\(", re.MULTILINE)


def dynamic_code(source: str) -> tuple[int, str] | None:
    """(line, words completing "<the module> ...") of the first call of `exec` or `eval` in the text: the code it
    runs may rebind any name of the module (`exec("SPEC = P('x', None)")` after `SPEC = P(None, 'y')`:
    breaker11 s02 placed the batch on the spmd axis while the reading saw `P(None, 'y')`); None when there is
    none. A mention in a comment or a string counts too, which only leaves a value unread."""
    found = _DYNAMIC.search(source)
    if found is None:
        return None
    line = source.count("\n", 0, found.start()) + 1
    return line, f"calls `{found.group(1)}` (line {line}), whose code may rebind any of its names"


@functools.lru_cache(maxsize=_TEXTS_KEPT)
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
# is none); `{owner}` what may precede the dot
_BLANK = r"(?:[ \t]|\\\n)*"
_ASSIGN = r"{owner}\.{blank}{name}{blank}(?:[-+*/%@&|^]|<<|>>|//|\*\*)?=(?!=)"
_LITERAL_NAME = re.compile(r"""\s*(?:[rRuU]?)(['"])([A-Za-z_]\w*)\1\s*$""")
_OPEN, _CLOSE = "([{", ")]}"


def project_write(
    source: str, attr: str, module_name: bool = False, setters: SetattrCalls | None = None,
    stores: AttributeStores | None = None,
) -> tuple[int, str] | None:
    """Where a module's text may store `.attr` on an object the analysis does not follow (the module handed
    it: `def tweak(cfg): cfg.data_axis = ...`, writes10 w08, w09), as (line, words completing "<module>
    line N ..."): an assignment `.attr = ...` (an augmented one too), a `setattr(obj, 'attr', ...)`, or a
    `setattr` whose name is not a string literal (`setattr(obj, key, value)`), also any other mention of
    `setattr` (`object.__setattr__`, an alias, a method `__setattr__`): it may set any attribute. The first
    in the text; None when there is none. On the text, never parsed: a comment or a string saying so counts
    too (a module too many, never one missed). `module_name`: `attr` is a module's top-level name, which
    `self.attr = ...` / `cls.attr = ...` in a method cannot store (`self` is an instance of a class, never a
    module object), so those are left out. `setters`, `stores`: `setattr_calls(source)`,
    `attribute_stores(source)`, when the caller keeps them (they do not depend on `attr`)."""
    stores = stores if stores is not None else attribute_stores(source)
    at = stores[1 if module_name else 0].get(attr)
    best = (at, f"assigns `.{attr}` on an object spmdfix does not follow") if at is not None else None
    setter = setattr_write(setters if setters is not None else setattr_calls(source), attr)
    if setter is not None and (best is None or setter[0] < best[0]):
        best = setter
    if best is None:
        return None
    return source.count("\n", 0, best[0]) + 1, best[1]


def class_attribute_write(source: str, attr: str) -> tuple[int, str] | None:
    """(offset, words completing "<module> line N ...") of the first place the text may set the special method
    `attr` (`__call__`, `__init__`) on a class from outside its body: `Layer.__call__ = ...` (any object but
    `self`: `cls.__call__ = ...` in a decorator, an `__init_subclass__` or a metaclass too), or
    `setattr(Layer, '__call__', ...)`; None when there is none. A store on an instance (`self.__call__ =`)
    changes no implicit call (`Layer()(x)` looks `__call__` up on the type). On the text, never parsed: a comment
    saying so counts too (a record too many, never a silence: breaker11 a14, a10, a49). `__class__` stored
    through `self` counts as well: it changes the instance's type, and so every method read off it."""
    name = re.escape(attr)
    best = None
    for found in re.finditer(_ASSIGN.format(owner=r"(\w*)[ \t]*", blank=_BLANK, name=name), source):
        if found.group(1) != "self" or attr == "__class__":
            what = "an object's type is replaced so" if attr == "__class__" else f"a class's `{attr}` is replaced so"
            best = (found.start(), f"sets `.{attr}` on an object ({what})")
            break
    setter = re.search(rf"""\bsetattr\s*\([^,\n]*,\s*[rRuU]?(['"]){name}\1""", source)
    if setter is not None and (best is None or setter.start() < best[0]):
        best = (setter.start(), f"calls `setattr(..., '{attr}', ...)`")
    return best


_INIT_CALL = re.compile(r"\.\s*__init__\s*\(")
_SUPER_BEFORE = re.compile(r"\bsuper\s*\([^()]*\)\s*$")
_SELF_FIRST = re.compile(r"\s*self\s*[,)]")


def init_call(source: str) -> tuple[int, str] | None:
    """(line, words completing "<module> line N ...") of the first call of an `__init__` through an object that
    may run it again on an instance already built (`cfg.__init__(axis='y')`, `Config.__init__(cfg, 'y')`): the
    attributes it sets then hold the new call's values, not the construction's (breaker18 i01, i02, i11); None
    when there is none. A base class's `__init__` run on the object being built is no such call:
    `super().__init__(...)`, `super(Sub, self).__init__(...)`, `Base.__init__(self, ...)`. On the code lines
    (`code_lines`: comment lines hold none), never parsed."""
    code = code_lines(source)
    for found in _INIT_CALL.finditer(code):
        line_start = code.rfind("\n", 0, found.start()) + 1
        if _SUPER_BEFORE.search(code, line_start, found.start()) or _SELF_FIRST.match(code, found.end()):
            continue
        return code.count("\n", 0, found.start()) + 1, "calls `__init__` on an object again"
    return None


# `attribute_stores`: each attribute name stored (`.name = ...`, augmented too) -> the offset of its first
# store; the same leaving out `self.name` / `cls.name`
AttributeStores = tuple[dict[str, int], dict[str, int]]
_ANY_STORE = re.compile(
    _ASSIGN.format(owner="", blank=_BLANK, name=r"([A-Za-z_]\w*)").replace(r"\.", r"\.(?!\.)", 1)
)


def attribute_stores(source: str) -> AttributeStores:
    """The attribute names the text stores on some object (`obj.name = ...`, `obj.name += ...`), each with the
    offset of its first store, read once for every attribute asked (`project_write`); and the same without
    the stores through `self` / `cls`."""
    every: dict[str, int] = {}
    others: dict[str, int] = {}
    for found in _ANY_STORE.finditer(source):
        name, at = found.group(1), found.start()
        every.setdefault(name, at)
        owner = re.search(r"\b(\w+)[ \t]*$", source[max(0, at - 40) : at])
        if owner is None or owner.group(1) not in ("self", "cls"):
            others.setdefault(name, at)
    return every, others


# `setattr_calls`: (offset of the first mention of `setattr` that may set any attribute, and whether it is a
# call, or None; each attribute name a call gives as a string literal -> the offset of its first such call)
SetattrCalls = tuple["tuple[int, bool] | None", dict[str, int]]


def setattr_calls(source: str) -> SetattrCalls:
    """The mentions of `setattr` in the text, read once for every attribute asked (`setattr_write`): the
    first that may set any attribute (a call `setattr(obj, NAME, value)` whose NAME is not a string literal,
    or a mention that is no plain call: `object.__setattr__`, `set_ = setattr`, `def __setattr__`), and the
    names the others give as literals."""
    literals: dict[str, int] = {}
    at = source.find("setattr")
    while at >= 0:
        plain = not source[max(0, at - 2) : at].endswith("_") and not source[at - 1 : at].isalnum()
        after = _CALL.match(source, at + 7)
        if not plain or after is None:
            return (at, False), literals
        name = _second_argument(source, after.end())
        literal = _LITERAL_NAME.match(name) if name is not None else None
        if literal is None:
            return (at, True), literals
        literals.setdefault(literal.group(2), at)
        at = source.find("setattr", at + 7)
    return None, literals


_CALL = re.compile(r"\s*\(")


def setattr_write(calls: SetattrCalls, attr: str) -> tuple[int, str] | None:
    """(offset, words) of the first mention of `setattr` (`setattr_calls`) that may set `.attr`: a call
    naming `'attr'`, a call whose name is not a string literal, a mention that is no plain call; None."""
    anything, literals = calls
    named = literals.get(attr)
    if anything is not None and (named is None or anything[0] < named):
        if anything[1]:
            return anything[0], f"calls `setattr` with an attribute name that is not a string literal, which may be `{attr}`"
        return anything[0], f"mentions `setattr` other than in a plain call (`__setattr__`, an alias), which may set `.{attr}`"
    if named is not None:
        return named, f"calls `setattr(..., '{attr}', ...)`"
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
