"""Every use of a value, found by scope, and the uses an allowlist does not cover.

A fix is safe only when every place that reads a value it edits (or relies on) is a use measured to keep its
meaning after the edit (docs/safety.md). This module finds those places; the caller supplies the allowlist.

How a value is followed from the expression that creates it (`UseIndex.uses_of_value`):

- assigned to a name (`mesh = Mesh(...)`, an alias `m = mesh`, `m: Mesh = mesh`): every load of that binding,
  resolved by Python's scope rules (`ModuleIndex.lookup`), never by textual name: a local of the same name in
  another function is another binding and is not a use;
- returned by a function (`def make(): return Mesh(...)`): every call of that function is the value again,
  and any other read of the function's name (passed, stored) is a use of its own;
- bound in a class body (`class C: mesh = MESH`) or returned by a method: read as an attribute (`C.mesh`,
  `self.mesh`, `obj.get()`), never by a name load, so not followed: the assignment or `return` is the end use;
- returned by a module's `__getattr__` (PEP 562: Python calls it for a missing attribute, `pkg.MESH`, never
  by its name): not followed, the `return` is the end use;
- returned by a decorated function (other than `functools.cache` / `functools.lru_cache`, which keep it a
  function returning the value): the decorator decides who receives the value (`@pytest.fixture` hands it to
  every test with a parameter of the function's name, never by a call or an import of the name; breaker7 s03):
  not followed, the `return` is the end use;
- anything else is an end use: the expression in its context (`mesh.axis_names`, `NamedSharding(mesh, ...)`,
  `helper(mesh)`) is handed to the allowlist.

A name with several bindings in one scope (reassigned, augmented, loop targets) cannot be followed: its loads
are end uses the allowlist sees as plain names, which no allowlist here accepts.

Usage (a sketch of what `spmdfix.analysis.mesh_uses` does for add-axis)::

    index = UseIndex(module_index)
    bad = index.disallowed(mesh_ctor_call, allow=my_allowlist)   # list[Use]
    reasons = [f"{u.text} (line {u.line})" for u in bad]

`allow(expr, index)` receives the expression that holds the value at an end use (an `ast.Name` load, or a
call of a factory function) and returns True when that use is on the allowlist. Helpers for allowlists:
`parent`, `attribute_chain` and `describe`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from spmdfix.analysis.bindings import Binding
from spmdfix.analysis.follow import USES, Follow
from spmdfix.analysis.scopes import ModuleIndex
from spmdfix.model import Span

# Decorators whose function is still reached by calling its name (a cached call returns what the body returned).
_CALLED_DECORATORS = frozenset({"functools.cache", "functools.lru_cache"})
from spmdfix.perf import frozen

_DESCRIBE_LIMIT = 72


@frozen(slots=True)
class Use:
    """One end use of a value that the allowlist did not cover.

    span: the expression holding the value (a name load or a call). line: its 1-based row. text: the source of
    the enclosing use as a reader would name it (`len(mesh.shape)`, `helper(mesh)`), shortened to 72 code
    points. module: the module it is in, as messages show its path, when not the module of the value's
    definition (a use in a module importing it: `analysis.importers`); "" otherwise. how: what the use does
    with the value when it is not a call of it (`analysis.callers`: "reads its attribute `w_in`"), "" for a
    call or where no one asks.
    """

    span: Span
    line: int
    text: str
    module: str = ""
    how: str = ""

    def describe(self) -> str:
        """`\\`len(mesh.shape)\\` (line 12)`, or `... (pkg/reader.py line 3)` in another module — how a fix's
        reason names this use; a use that is not a call of the value says so after (`... (line 3) (reads its
        attribute `w_in`: NOT_A_CALL)`: `is_call`)."""
        where = f"{self.module} line" if self.module else "line"
        how = f" ({self.how}: {NOT_A_CALL})" if self.how else ""
        return f"`{self.text}` ({where} {self.line}){how}"


# How a described use (`Use.describe`) that is not a call of the callable it holds ends: `is_call` tells them
# apart in a reason's list of places, which are text by then (`ReachedFacts.other_callers`).
NOT_A_CALL = "not a call of it"


def is_call(place: str) -> bool:
    """Whether a described place (`Use.describe`) runs the callable there, rather than using it otherwise."""
    return not place.endswith(f": {NOT_A_CALL})")


Allowlist = Callable[[ast.expr, "UseIndex"], bool]

LISTED = 3  # the places a fix's reason names, at most (`listed`)


def listed(places: Iterable[str], limit: int = LISTED) -> str:
    """The places a fix's reason names (`Use.describe` texts), once each, in order, joined with ", ": at most
    `limit` of them, then "and N more". The one place every reason lists its places through (add-axis's
    mesh readers, strip's spec uses and other callers), so every front end (CLI, JSON, SARIF, the language
    server) shows the same short text: a file checked alone in a crowded directory (`/tmp` as its project
    root) may have hundreds of modules loading modules by name, each a place."""
    unique = list(dict.fromkeys(places))
    if len(unique) <= limit:
        return ", ".join(unique)
    return f"{', '.join(unique[:limit])} and {len(unique) - limit} more"


class UseIndex:
    """Name loads of one module, indexed by name once, and the uses of values they carry.

    Input: a `ModuleIndex`, whose walk gathered the loads by name (`ModuleIndex.loads_of`). Pure.
    """

    def __init__(self, index: ModuleIndex) -> None:
        self.ix = index

    # --- bindings ----------------------------------------------------------------------------------
    def loads(self, binding: Binding) -> list[ast.Name]:
        """Every `ast.Name` load that resolves to `binding` (by scope), in source order."""
        out = []
        for n in self.ix.loads_of(binding.name):
            scope = self.ix.scope_at(n)
            found = self.ix.lookup(n.id, scope)
            if any(b is binding for b in found):
                out.append(n)
            elif scope.is_class and binding.scope is self.ix.module_scope and found and found[0].scope is scope:
                # A class body's read of a name the class binds too (`class C: mesh = mesh`) reads the class
                # namespace once bound there, the module's name before: counted as a load of both.
                out.append(n)
        return out

    def target_binding(self, target: ast.AST, value: ast.AST) -> Binding | None:
        """The binding an assignment `target = value` made, when `target` is a plain name bound once."""
        if not isinstance(target, ast.Name):
            return None
        bindings = self.ix.lookup(target.id, self.ix.scope_at(target))
        if len(bindings) != 1 or bindings[0].node is not value:
            return None
        return bindings[0]

    # --- values ------------------------------------------------------------------------------------
    def uses_of_value(self, expr: ast.expr, exits: list[tuple[str, bool]] | None = None) -> list[ast.expr]:
        """The end uses of the value `expr` computes (see the module docstring), in source order.

        An assignment the value flows into is not itself an end use, nor is a factory's `return`; a binding
        that cannot be followed (several bindings of the name) leaves the expression as an end use; the walk
        enters each expression once and goes as deep as `follow.USES` allows. `exits`, when given, receives
        the module-level names the value flows into, (name, a function returning it): other modules may
        import them (`analysis.importers`).
        """
        out: list[ast.expr] = []
        self._follow(expr, out, Follow(USES), exits)
        out.sort(key=lambda n: (n.lineno, n.col_offset))
        return out

    def _follow(self, expr: ast.expr, out: list[ast.expr], follow: Follow, exits: list | None = None) -> None:
        if follow.spent or not follow.first_visit(expr):
            return
        up = self.ix.parent.get(id(expr))
        if isinstance(up, (ast.Assign, ast.AnnAssign)) and up.value is expr:
            targets = up.targets if isinstance(up, ast.Assign) else [up.target]
            bindings = [self.target_binding(t, expr) for t in targets]
            # (a name of a class body is read as an attribute, `C.mesh`, `self.mesh`, never by a name load:
            # not followed, the value there is an end use)
            if bindings and all(b is not None and not b.scope.is_class for b in bindings):
                for binding in bindings:
                    if exits is not None and binding.scope is self.ix.module_scope:
                        exits.append((binding.name, False))
                    for load in self.loads(binding):
                        self._follow(load, out, follow.deeper(), exits)
                return
        if isinstance(up, ast.Return) and up.value is expr:
            func = next((a for a in self.ix.ancestors(up) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
            binding = self._def_binding(func)
            # (a method: called as `obj.m()`; a decorated function: given to whoever the decorator gives it to;
            # a module's `__getattr__`: Python calls it for `pkg.MESH` (PEP 562), never by its name, so the
            # `return` is the end use, breaker19 a12: `pkg.MESH.devices.shape[0]` went 2 -> 1 under a safe add-axis)
            if (
                binding is not None
                and not binding.scope.is_class
                and self._plain_def(func)
                and not (func.name == "__getattr__" and binding.scope is self.ix.module_scope)
            ):
                if exits is not None and binding.scope is self.ix.module_scope:
                    exits.append((binding.name, True))
                for load in self.loads(binding):
                    call = self.ix.parent.get(id(load))
                    if isinstance(call, ast.Call) and call.func is load:
                        self._follow(call, out, follow.deeper(), exits)
                    else:
                        out.append(load)
                return
        out.append(expr)

    def _plain_def(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether every decorator of `func` keeps it a function its callers call (none, or `functools.cache`
        / `functools.lru_cache` in any spelling): its calls are then the places its return value goes."""
        scope = self.ix.scope_at(func)
        for deco in func.decorator_list:
            target = deco.func if isinstance(deco, ast.Call) else deco
            if self.ix.qualname(target, scope) not in _CALLED_DECORATORS:
                return False
        return True

    def _def_binding(self, func: ast.AST | None) -> Binding | None:
        """The binding of a `def` when its name is bound once (so every call of the name calls it)."""
        if func is None:
            return None
        scope = self.ix.scope_at(func)
        bindings = scope.bindings.get(func.name, [])
        if len(bindings) == 1 and bindings[0].node is func:
            return bindings[0]
        return None

    def disallowed(self, expr: ast.expr, allow: Allowlist) -> list[Use]:
        """The end uses of the value of `expr` that `allow` rejects, as `Use`s in source order."""
        return [self.use(u) for u in self.uses_of_value(expr) if not allow(u, self)]

    def use(self, expr: ast.expr) -> Use:
        """`expr` as a `Use` (span, line, the source of the enclosing use)."""
        return Use(self.ix.lines.span_of_ast(expr), expr.lineno, describe(self.ix, expr))

    # --- helpers for allowlists --------------------------------------------------------------------
    def parent(self, node: ast.AST) -> ast.AST | None:
        """The node directly containing `node` (a `keyword` for `f(mesh=...)` arguments)."""
        return self.ix.parent.get(id(node))


def attribute_chain(index: UseIndex, expr: ast.expr) -> tuple[list[str], ast.expr]:
    """The attributes read off `expr` (`mesh.devices.shape` -> ['devices', 'shape']) and the outermost node of
    that chain."""
    attrs: list[str] = []
    node = expr
    up = index.parent(node)
    while isinstance(up, ast.Attribute) and up.value is node:
        attrs.append(up.attr)
        node, up = up, index.parent(up)
    return attrs, node


def short(node: ast.AST, limit: int = 60) -> str:
    """The source of `node` on one line, cut to `limit` characters (for messages that quote an expression)."""
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe(ix: ModuleIndex, expr: ast.expr) -> str:
    """The source of the use around `expr`: its attribute/subscript chain, and the call, `len(...)`,
    unpacking or statement that consumes it (first line only, shortened)."""
    node: ast.AST = expr
    up = ix.parent.get(id(node))
    while isinstance(up, (ast.Attribute, ast.Subscript, ast.Starred)) and getattr(up, "value", None) is node:
        node, up = up, ix.parent.get(id(up))
    if isinstance(up, ast.keyword):
        node, up = up, ix.parent.get(id(up))
    if isinstance(up, (ast.Call, ast.Tuple, ast.List, ast.Set, ast.Dict, ast.Assign, ast.Return, ast.For)):
        node = up
    span = ix.lines.span_of_ast(node)
    text = " ".join(ix.source[span.start : span.end].splitlines()[0].split()) if span.end > span.start else ""
    return text if len(text) <= _DESCRIBE_LIMIT else text[: _DESCRIBE_LIMIT - 3] + "..."
