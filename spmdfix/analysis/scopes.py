"""One module's index: its scopes, the names each binds, and import-alias resolution.

This is the light replacement for libcst's ScopeProvider and QualifiedNameProvider, which cost over a second
on a 2,000-line file when measured; one walk of the stdlib `ast` costs milliseconds (`bindings.bind_module`).
It answers two questions for the analysis: what does a name refer to here (`lookup`), and which fully
qualified JAX name does an expression spell (`qualname`), following `import ... as`, `from ... import ... as`
and module-level aliases such as `shard_map = jax.shard_map`; and a few about calls and functions (the
calls a function makes, the value every call passes for a parameter, a decorator of a def).

Name resolution follows Python's rules where they matter for us (function scopes see enclosing function
scopes and the module, not class bodies) and gives up where a name has several different bindings: callers
then stay silent instead of guessing.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from spmdfix import jaxapi
from spmdfix.analysis.bindings import POSITION, Binding, BindingKind, Scope, bind_module
from spmdfix.analysis.follow import QUALNAME, Follow
from spmdfix.analysis.quotes import module_quote
from spmdfix.analysis.writes import declared_names
from spmdfix.positions import LineIndex


# What every star import's text holds: `import`, then (spaces, line breaks, continuations) `*`.
_STAR_IMPORT = re.compile(r"\bimport[\s\\]*\*")
# The libraries whose attributes (`jax.make_mesh`) never name a function of the module (`_library_attributes`).
_LIBRARIES = frozenset({"jax", "jaxlib", "flax", "numpy", "optax"})


class ModuleIndex:
    """Scopes, parents and call sites of one parsed module.

    Input: the module source (`str`) and its `ast.Module`; for a module of a project, its `path` (spans then
    name it, `model.Span.path`; "" for the module being checked) and its dotted name `package` of the package
    it belongs to (`from .layers import f` is then bound to the absolute `pkg.layers.f`; without it a relative
    import keeps its dots). Building it never raises for a tree that `ast.parse` produced.
    """

    def __init__(self, source: str, tree: ast.Module, path: str = "", package: str | None = None) -> None:
        self.source = source
        self.tree = tree
        self.path = path
        self.package = package
        self.lines = LineIndex(source, path)
        self.parent: dict[int, ast.AST] = {}
        self.scope_by_node: dict[int, Scope] = {}  # function/lambda/class/module node -> its own scope
        self.enclosing: dict[int, Scope] = {}  # any node -> scope its expressions are evaluated in
        self.calls: list[ast.Call] = []
        # By call: the innermost def whose body (decorators and defaults included) holds it, else the module.
        self.owner: dict[int, ast.AST] = {}
        # name -> its `ast.Name` loads, gathered by the same walk in the walk's order (`loads_of` gives them in
        # source order; `uses.UseIndex` follows values through them; a walk of its own would cost as much as
        # this whole index on a big file). The walk does not enter a def's annotations: their loads are
        # added apart (`_annotation_loads`).
        self.name_loads: dict[str, list[ast.Name]] = {}
        self._sorted_loads: set[str] = set()  # the names whose list `loads_of` has sorted
        # Every assignment with an attribute target (`self.x = ...`: `reach.Reacher` finds class members in
        # them), collected by the same walk rather than by walks of each class.
        self.attribute_assigns: list[ast.Assign] = []
        # Every `ast.Attribute` of the module (annotations included: every one `ast.walk` of the tree meets), in
        # no particular order, gathered by the same walk; by attribute name when first asked (`attributes_named`).
        self.attributes: list[ast.Attribute] = []
        self._attributes_by_name: dict[str, list[ast.Attribute]] | None = None
        self._arguments: dict[int, tuple[ast.AST, Scope] | None] = {}
        self._by_callee: dict[str, list[ast.Call]] | None = None  # `_calls_of_name`
        self._by_owner: dict[int, list[ast.Call]] | None = None  # `calls_in`
        self._word_counts: dict[str, int] = {}
        self._star_imports: list[ast.ImportFrom] | None = None  # `star_imports`
        self._attribute_calls: dict[int, ast.Call | None] = {}  # `attribute_call`, by the id of the call it reads
        # Facts an analysis derives from this module's text alone, by a key whose first item names the analysis
        # (`importers._module_reads`): a process shares a module's index between its project indexes
        # (`spmdfix.module_memo`), so what one index derived serves the next (a language server builds one
        # per edit of a document) without walking the module again.
        self.derived: dict[tuple, object] = {}
        self.module_scope = Scope(tree, None)
        self.scope_by_node[id(tree)] = self.module_scope
        bind_module(self, tree)

    def release(self) -> None:
        """Empty the scopes' bindings; the index answers no more lookups after this. Each binding refers to
        its scope, which holds the binding: those cycles made the whole analysis of a module (its tree, 190,000
        objects for jax's 12,600-line pjit_test.py) garbage for the cyclic collector to find, whose pass cost
        twice what reference counting frees it for once the cycles are gone."""
        for scope in self.scope_by_node.values():
            scope.bindings.clear()

    # --- queries ----------------------------------------------------------------------------------
    def star_imports(self) -> list[ast.ImportFrom]:
        """The `from m import *` statements of the module, in walk order; walked once (the cross-module
        judgement asks it of every module importing a mesh, once per project index, and a process shares a
        module's index between its project indexes: `spmdfix.module_memo`)."""
        if self._star_imports is None:
            # (no walk of a module whose text holds no `import` followed by `*`, as every star import is
            # written: most modules, and the analysed importers a language server's typed edit walks again)
            self._star_imports = (
                [
                    node
                    for node in ast.walk(self.tree)
                    if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
                ]
                if _STAR_IMPORT.search(self.source)
                else []
            )
        return self._star_imports

    def loads_of(self, name: str) -> list[ast.Name]:
        """The `ast.Name` loads of `name` in the module, in source order (annotations included). Sorted when
        first asked: a module's analysis asks for the loads of a few of its names (on jax's pjit_test.py,
        sorting the 19,000 loads of its 830 names cost a tenth of the index)."""
        loads = self.name_loads.get(name)
        if loads is None:
            return []
        if name not in self._sorted_loads:
            loads.sort(key=POSITION)
            self._sorted_loads.add(name)
        return loads

    def scope_at(self, node: ast.AST) -> Scope:
        """The scope in which the expression `node` is evaluated."""
        return self.enclosing.get(id(node), self.module_scope)

    def own_scope(self, node: ast.AST) -> Scope | None:
        """The scope a function, lambda, class or module node opens."""
        return self.scope_by_node.get(id(node))

    def lookup(self, name: str, scope: Scope) -> list[Binding]:
        """Bindings of `name` visible from `scope` (Python's LEGB rule, class bodies skipped when nested)."""
        found = scope.bindings.get(name)  # (a name is in `bindings` with one binding at least)
        if found is not None:
            return found
        current = scope.parent
        while current is not None:
            if current.node.__class__ is not ast.ClassDef:
                found = current.bindings.get(name)
                if found is not None:
                    return found
            current = current.parent
        return []

    def single_binding(self, name: str, scope: Scope) -> Binding | None:
        """The one binding of `name` from `scope`, or None when there is none or several."""
        bindings = self.lookup(name, scope)
        if len(bindings) == 1:
            return bindings[0]
        if bindings and all(b.kind is BindingKind.IMPORT and b.qname == bindings[0].qname for b in bindings):
            return bindings[0]
        return None

    def qualname(self, expr: ast.AST, scope: Scope, follow: Follow | None = None) -> str | None:
        """The fully qualified name `expr` spells (`jax.vmap`), or None when it is not an imported name.

        `expr` must be a Name or an Attribute chain, where a `getattr(obj, 'name')` of a literal name stands for
        `obj.name` (`getattr_literal`); anything else gives None. A name with several
        bindings, or bound to something other than an import or an alias of one, gives None, and so does a
        chain longer than `follow.QUALNAME` steps (attributes and aliases together).
        """
        follow = follow or _QUALNAME
        if follow.spent:
            return None
        if isinstance(expr, ast.Attribute):
            base = self.qualname(expr.value, scope, follow.deeper())
            return f"{base}.{expr.attr}" if base else None
        attr = self.getattr_literal(expr, scope)
        if attr is not None:
            # `getattr(jax, 'shard_map')` is `jax.shard_map` (breaker12 c19: silent before)
            base = self.qualname(attr[0], scope, follow.deeper())
            return f"{base}.{attr[1]}" if base else None
        if not isinstance(expr, ast.Name):
            return None
        binding = self.single_binding(expr.id, scope)
        if binding is None:
            return None
        if binding.kind is BindingKind.IMPORT:
            return binding.qname
        if binding.kind is BindingKind.ASSIGN and (
            isinstance(binding.node, (ast.Name, ast.Attribute)) or self.getattr_literal(binding.node, binding.scope)
        ):
            return self.qualname(binding.node, binding.scope, follow.deeper())
        return None

    def attribute_call(self, call: ast.Call) -> ast.Call | None:
        """For `getattr(obj, 'name')(args)` (`getattr_literal`), the call `obj.name(args)` it makes: built once
        per call (the walks that meet it again meet the same node) and placed where `call` is (its scope, parent,
        owner and position); its operands are `call`'s own nodes. None for any other call."""
        made = self._attribute_calls.get(id(call))
        if made is not None or id(call) in self._attribute_calls:
            return made
        scope = self.scope_at(call)
        attr = self.getattr_literal(call.func, scope) if isinstance(call.func, ast.Call) else None
        if attr is not None:
            func = ast.copy_location(ast.Attribute(value=attr[0], attr=attr[1], ctx=ast.Load()), call.func)
            made = ast.copy_location(ast.Call(func=func, args=call.args, keywords=call.keywords), call)
            for node, up in ((made, self.parent.get(id(call))), (func, made)):
                if up is not None:
                    self.parent[id(node)] = up
                self.enclosing[id(node)] = scope
            if id(call) in self.owner:
                self.owner[id(made)] = self.owner[id(call)]
        self._attribute_calls[id(call)] = made  # (keeps `made` alive: the maps above are keyed by its id)
        return made

    def getattr_literal(self, expr: ast.AST, scope: Scope) -> tuple[ast.AST, str] | None:
        """`(obj, 'name')` for `getattr(obj, 'name')`: the builtin `getattr` (no binding of that name from
        `scope`) given two positional arguments, the second a string literal that is an identifier, which reads
        what `obj.name` reads; None for anything else (a default, a name not a literal, a `getattr` of the
        module's own)."""
        if not (
            isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "getattr"
            and len(expr.args) == 2 and not expr.keywords
        ):
            return None
        obj, name = expr.args
        if isinstance(obj, ast.Starred) or not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
            return None
        if not name.value.isidentifier() or self.lookup("getattr", scope):
            return None
        return obj, name.value

    def argument_for(
        self, param: Binding, elsewhere: Callable[[str], bool] | None = None
    ) -> tuple[ast.AST, Scope] | None:
        """The value every call of a function passes for its parameter `param`, with the scope it is
        evaluated in: the function is called by name in this module only (its name appears nowhere else in
        the text, not even in a string), and every call passes the same expression (the same constant, or
        the same name bound the same way; a call that leaves the parameter out, and passes no `*args` or
        `**kwargs`, passes its default, evaluated where the function is defined). The `__init__` of a class
        of the module is called by the constructions of the class (`Block(...)`, the arguments after
        `self`). None otherwise, or for another method, `*args` and `**kwargs`.

        elsewhere: whether another module of the project may reach a module-level function or class of this
        one by its name (`index.ProjectLink.named_elsewhere`; None: a module alone). When it may, that
        module's calls may pass other values, which this module's text does not show: None. (Without it a
        layer `def forward(x, ax)` called here as `forward(x, 'model')` read `ax` as `'model'` for a vmap of
        another module calling `forward(x, 'data')`: a finding on a program that runs.)"""
        key = id(param.node)
        if key in self._arguments:
            found = self._arguments[key]
        else:
            self._arguments[key] = None
            self._arguments[key] = found = self._argument_for(param)
        if found is not None and elsewhere is not None:
            name = self.module_level_callee(param)
            if name is not None and elsewhere(name):
                return None
        return found

    def module_level_callee(self, param: Binding) -> str | None:
        """The name by which another module may call the function holding `param`: the function's, or its
        class's for an `__init__` (`_argument_for` reads only those of module level); None for a function
        nested in another (no other module reaches it by name)."""
        func = self.parent.get(id(param.node))
        owner = self.parent.get(id(func))
        if isinstance(owner, ast.ClassDef):
            return owner.name if self.scope_at(owner) is self.module_scope else None
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) and self.scope_at(func) is self.module_scope:
            return func.name
        return None

    def _argument_for(self, param: Binding) -> tuple[ast.AST, Scope] | None:
        from spmdfix.analysis.calls import argument

        func = self.parent.get(id(param.node))
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        # The function as called by name: a function, or the class whose `__init__` it is (a construction
        # `Block(...)` passes the arguments after `self`).
        called: ast.AST = func
        positional = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
        owner = self.parent.get(id(func))
        if isinstance(owner, ast.ClassDef):
            if func.name != "__init__" or self.scope_at(owner) is not self.module_scope or not positional:
                return None
            called, positional = owner, positional[1:]
        if param.name not in positional and param.name not in {a.arg for a in func.args.kwonlyargs}:
            return None
        position = positional.index(param.name) if param.name in positional else None
        sites = []
        for call in self._calls_of_name().get(called.name, ()):  # type: ignore[attr-defined]
            scope = self.scope_at(call)
            bound = self.single_binding(called.name, scope)  # type: ignore[attr-defined]
            if bound is None or bound.node is not called:
                return None
            value = argument(call, position, param.name)
            if value is None:
                # Not passed here: the parameter's default, when the call cannot pass it another way.
                value = default_of(func, param.name, call)
                if value is None:
                    return None
                scope = self.scope_at(func)
            sites.append((value, scope))
        # Every other occurrence of the name may be a use of the function this reading does not see, but an
        # attribute of JAX's own (`jax.make_mesh(...)` inside a helper named `make_mesh`: fuzz seed 230018) is
        # another function
        if not sites:
            return None
        extra = self.word_count(called.name) - (len(sites) + 1)  # type: ignore[attr-defined]
        if extra and self._library_attributes(called.name) != extra:  # type: ignore[attr-defined]
            return None
        first, scope = sites[0]
        for value, other in sites[1:]:
            if ast.dump(value) != ast.dump(first):
                return None
            if isinstance(value, ast.Name) and self.lookup(value.id, other) is not self.lookup(first.id, scope):
                return None
        return first, scope

    def _library_attributes(self, name: str) -> int:
        """How many `<library>.<name>` attribute reads the module holds whose qualified name is one of JAX's,
        Flax's or NumPy's (`jax.make_mesh`): none of them refers to a function of this module."""
        count = 0
        for node in self.attributes_named(name):
            qname = self.qualname(node, self.scope_at(node))
            if qname is not None and qname.split(".")[0] in _LIBRARIES:
                count += 1
        return count

    def attributes_named(self, name: str) -> list[ast.Attribute]:
        """The module's `ast.Attribute` nodes whose attribute is `name` (`x.name`), from the attributes the
        index's walk gathered (a walk of the whole tree per name asked was a tenth of the analysis of jax's
        shard_map_test.py); grouped by name once, on first use."""
        if self._attributes_by_name is None:
            self._attributes_by_name = {}
            for node in self.attributes:
                self._attributes_by_name.setdefault(node.attr, []).append(node)
        return self._attributes_by_name.get(name, [])

    def calls_of_name(self, name: str) -> list[ast.Call]:
        """The calls of the module whose callee is the plain name `name`, in source order."""
        return self._calls_of_name().get(name, [])

    def _calls_of_name(self) -> dict[str, list[ast.Call]]:
        """The calls whose callee is a plain name, by that name, in source order (built on first use)."""
        if self._by_callee is None:
            self._by_callee = {}
            for call in self.calls:
                if call.func.__class__ is ast.Name:
                    self._by_callee.setdefault(call.func.id, []).append(call)  # type: ignore[attr-defined]
        return self._by_callee

    def word_count(self, word: str) -> int:
        """How many times `word` occurs in the source as a whole word (as `\\bword\\b` counts them: code,
        strings and comments alike). Cached per word; a literal search with the boundaries checked around each
        hit, fifty times faster than the regular expression on a 10,000-line module."""
        count = self._word_counts.get(word)
        if count is None:
            if word and all(_is_word_char(c) for c in word):
                count = sum(1 for at in _whole_words(self.source, word) if not self._in_prose(at))
            else:  # (a character no `\\w` matches: the boundaries mean something else; let `re` decide)
                count = len(re.findall(rf"\b{re.escape(word)}\b", self.source))
            self._word_counts[word] = count
        return count

    def _in_prose(self, offset: int) -> bool:
        """Whether the word at `offset` is prose a person reads, not code: inside a docstring (the first
        statement of the module, a class or a function, a string alone) or a comment. A docstring naming a
        helper's call (`data_parallel("data")`) counted as a use of the helper "other than by a call", which made
        its parameters unread (an SPMD910 record) in a module that only calls it (breaker4). A string anywhere
        else still counts: `getattr(module, "name")` may use the name."""
        line0 = self.lines.line_of(offset)
        col = offset - self.lines.line_start(line0)
        text = self.lines.line_text(line0)
        if "#" in text[:col] and _after_comment_mark(text, col):
            return True
        for first, last, start in self._docstring_lines():
            if first <= line0 <= last and (line0 > first or col >= start):
                return True
        return False

    def quote(self) -> str:
        """The quote a string literal a fix writes in this module takes when nothing beside it says
        (`quotes.module_quote`: the style of most of its one-line strings, else `"`); read on first use."""
        found = self.derived.get(("quote",))
        if found is None:
            found = self.derived[("quote",)] = module_quote(self.tree, self._text_from)
        return found  # type: ignore[return-value]

    def declared_names(self) -> frozenset[str]:
        """The names the module's `nonlocal` and `global` statements declare (`writes.declared_names`), read on
        first use: a function declaring one may rebind it, which the scopes' one binding of it does not show."""
        found = self.derived.get(("nonlocal and global names",))
        if found is None:
            found = self.derived[("nonlocal and global names",)] = declared_names(self.source)
        return found  # type: ignore[return-value]

    def _text_from(self, node: ast.AST) -> str:
        """A few characters of the source from where `node` starts (its quote, after a string's prefix)."""
        start = self.lines.from_ast(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        return self.source[start : start + 8]

    def _docstring_lines(self) -> list[tuple[int, int, int]]:
        """The docstrings of the module, its classes and functions: (first line, last line, both 0-based, and
        the column the string starts at on its first line), built on first use from the scopes' nodes."""
        found = self.derived.get(("docstrings",))
        if found is None:
            found = []
            for scope in self.scope_by_node.values():
                body = getattr(scope.node, "body", None)
                first = body[0] if isinstance(body, list) and body else None
                if (
                    isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str) and first.end_lineno is not None
                ):
                    start = self.lines.from_ast(first.lineno, first.col_offset) - self.lines.line_start(first.lineno - 1)
                    found.append((first.lineno - 1, first.end_lineno - 1, start))
            self.derived[("docstrings",)] = found
        return found  # type: ignore[return-value]

    def decorator_in(self, func: ast.AST, names: frozenset[str], below: ast.AST | None = None) -> ast.AST | None:
        """The first decorator of `func` that is one of `names` (qualified), bare or as
        `functools.partial(<name>, ...)`; None when there is none (or `func` is not a def). With `below` (one of
        `func`'s decorators), only the decorators listed under it count: those applied before it, so inside it."""
        scope = self.scope_at(func)
        decorators = getattr(func, "decorator_list", [])
        if below is not None:
            at = next((i for i, d in enumerate(decorators) if d is below), None)
            if at is not None:
                decorators = decorators[at + 1 :]
        for deco in decorators:
            target = deco
            if isinstance(deco, ast.Call) and deco.args and self.qualname(deco.func, scope) in jaxapi.PARTIAL_NAMES:
                target = deco.args[0]
            if self.qualname(target, scope) in names:
                return deco
        return None

    def ancestors(self, node: ast.AST):
        """The chain of parents of `node`, innermost first."""
        current = self.parent.get(id(node))
        while current is not None:
            yield current
            current = self.parent.get(id(current))

    # --- functions ----------------------------------------------------------------------------------
    def calls_in(self, func: ast.AST) -> list[ast.Call]:
        """The calls a function's body makes, in source order (lambdas inside included, nested defs excluded;
        a def's decorators and defaults count as its own, `owner`). The index by owner is built on first use."""
        if isinstance(func, ast.Lambda):
            return [n for n in ast.walk(func.body) if isinstance(n, ast.Call) and not self._in_nested_def(n, func)]
        if self._by_owner is None:
            self._by_owner = {}
            owners = self.owner
            for call in self.calls:
                self._by_owner.setdefault(id(owners[id(call)]), []).append(call)
        return self._by_owner.get(id(func), [])

    def _in_nested_def(self, node: ast.AST, root: ast.AST) -> bool:
        for anc in self.ancestors(node):
            if anc is root:
                return False
            if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return True
        return False

    def function_of(self, expr: ast.AST) -> ast.AST | None:
        """The function `expr` is (a `def` or `lambda` node) or names (a name bound once to a `def`, looked up
        where it is written); None for anything else."""
        if isinstance(expr, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return expr
        if isinstance(expr, ast.Name):
            binding = self.single_binding(expr.id, self.scope_at(expr))
            if binding is not None and binding.kind is BindingKind.DEF:
                return binding.node
        return None

    def enclosing_function(self, node: ast.AST) -> ast.AST | None:
        """The innermost `def` or `lambda` around `node`, or None when a class body or the module comes first."""
        for anc in self.ancestors(node):
            if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return anc
            if isinstance(anc, (ast.Module, ast.ClassDef)):
                return None
        return None


# The start of every `qualname` walk: one context for all of them, as the walk keeps no visited set (each
# step's context is made once and kept, so the hottest query of the analysis allocates none).
_QUALNAME = Follow(QUALNAME)


def _is_word_char(char: str) -> bool:
    """What `re`'s `\\w` matches in a `str` pattern: a Unicode letter or digit (`str.isalnum`), or `_`."""
    return char.isalnum() or char == "_"


def _whole_words(source: str, word: str):
    """The offsets of `word` in `source` with no word character just before or after it (`word` made of
    word characters only: two such occurrences never overlap)."""
    start = source.find(word)
    while start >= 0:
        end = start + len(word)
        before = start > 0 and _is_word_char(source[start - 1])
        if not before and not (end < len(source) and _is_word_char(source[end])):
            yield start
        start = source.find(word, end)


def _after_comment_mark(line: str, col: int) -> bool:
    """Whether column `col` of the one line `line` follows a comment's `#` on it: the line's first `#` comes
    before `col` with no quote before it (a `#` after a quote may be inside a string literal: the word then
    counts, which only ever keeps a parameter unread). A line inside a string of several lines may read as a
    comment here: a word there is no use of a value either."""
    mark = line.find("#")
    return 0 <= mark < col and "'" not in line[:mark] and '"' not in line[:mark]


def has_word(source: str, word: str) -> bool:
    """Whether `word` (word characters only) occurs in `source` as a whole word (`ModuleIndex.word_count`'s
    test, without a parse: a module's text read but not parsed, `analysis.importers`)."""
    return next(_whole_words(source, word), None) is not None


def default_of(func: ast.FunctionDef | ast.AsyncFunctionDef, name: str, call: ast.Call) -> ast.AST | None:
    """The default written for parameter `name` of `func` when `call` does not pass it, or None: the call
    passes `*args` or `**kwargs` (which may hold it), or the parameter has no default."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    positional = [*func.args.posonlyargs, *func.args.args]
    defaults = func.args.defaults
    for arg, default in zip(positional[len(positional) - len(defaults) :], defaults):
        if arg.arg == name:
            return default
    for arg, default in zip(func.args.kwonlyargs, func.args.kw_defaults):
        if arg.arg == name:
            return default
    return None
