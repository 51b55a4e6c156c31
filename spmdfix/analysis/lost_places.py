"""The places a reach walk (`reach.Reacher`) loses, in words: where the code of the project calls something
the analysis cannot know (SPMD910 reports them: silence is a claim, never a guess).

Lost: a called name bound in several places, a parameter or a loop target whose callable is not known, a
callable looked up at run time (`LAYERS[name]`, `getattr(obj, name)`, a name looked up in a module's namespace:
`getattr(sys.modules[__name__], 'block')`, `globals()['block']`, `eval('block')`: `namespace_lookup`), `self.name(...)` that the class and its
bases do not define, a name of the project the index cannot resolve. Not lost: what a library (JAX, the
standard library, any module outside the project) defines; `follows` says which names are the project's.
"""

from __future__ import annotations

import ast
import builtins
import sys
from typing import TYPE_CHECKING

from spmdfix.analysis.bindings import BindingKind, Scope, imported_module
from spmdfix.analysis.module_model import ModuleModel

if TYPE_CHECKING:
    from spmdfix.analysis.reach import ReachResult

# The standard library defines no shard_map: its calls are not looked for in the project (nor counted).
_STDLIB = frozenset(sys.stdlib_module_names)
_BUILTINS = frozenset(vars(builtins))  # (a name no statement binds and no star import may give: a builtin)


def builtin_name(name: str) -> bool:
    """Whether `name`, which no statement of a module binds, is one of Python's builtins (`object`, `dict`)."""
    return name in _BUILTINS


class LostPlaces:
    """What the reach walk of one module (its `ModuleModel`) cannot follow, with a project index
    (`ModuleModel.project`) to tell the project's names from a library's. Pure."""

    def __init__(self, model: ModuleModel) -> None:
        self.ix = model.ix
        self.members = model.members
        self.project = model.project
        self.model = model

    def follows(self, qname: str | None) -> bool:
        """Whether `qname` is a name the project index looks for (not JAX's, not the standard library's)."""
        return (
            self.project is not None
            and self.project.follows(qname)
            and qname.split(".")[0] not in _STDLIB  # type: ignore[union-attr]
        )

    def lost_bindings(self, name: ast.Name, scope: Scope, result: ReachResult) -> None:
        """A called name with several bindings: lost when one of them is code (a function, class, parameter
        or value of this module); names bound only by imports (`try: import a except: import b`) are left
        alone, as a builtin is."""
        bindings = self.ix.lookup(name.id, scope)
        if len(bindings) > 1 and any(b.kind in (BindingKind.DEF, BindingKind.CLASS, BindingKind.PARAM, BindingKind.ASSIGN) for b in bindings):
            result.unresolved.append((name, f"`{name.id}` is bound in {len(bindings)} places"))
        elif not bindings and name.id not in _BUILTINS:
            star = self.star_source(name.id)
            if star:
                result.unresolved.append((name, star))

    def namespace_lookup(self, func: ast.AST, scope: Scope) -> str:
        """Why the callee `func` of a call is lost when it is looked up by name in a module's namespace at run
        time, in words; "" otherwise. The namespace: `sys.modules[...]` / `sys.modules.get(...)`, `globals()`,
        `vars()` / `vars(obj)`, `locals()`, `__import__(...)` (the builtins, unshadowed), or a name bound once to
        one of them; the lookup: an attribute of it (`sys.modules[__name__].block`), `getattr(namespace, ...)`,
        an item or `.get(...)` of its dict (`globals()['block']`). `eval(...)` gives any value too. Silent
        before (w14, safety/trials/breaker14: `getattr(sys.modules[__name__], 'block')(v)` in the vmapped
        function, "All checks passed!" while JAX raised SPMD001's error)."""
        if self._builtin_call(func, scope, "eval"):
            return f"`{_short(func)}` evaluates a string at run time: which callable it gives is not known"
        looked_in = None
        if isinstance(func, ast.Attribute) and not self._namespace_dict(func.value, scope):
            looked_in = func.value  # (a method of a namespace dict, `globals().get`, is no lookup: its call is)
        elif isinstance(func, ast.Subscript):
            looked_in = func.value
        elif isinstance(func, ast.Call) and self._builtin_call(func, scope, "getattr") and func.args:
            looked_in = func.args[0]
        elif isinstance(func, ast.Call) and isinstance(func.func, ast.Attribute) and func.func.attr == "get":
            looked_in = func.func.value
        if looked_in is None or not self._namespace(looked_in, scope, top=True):
            return ""
        return (
            f"`{_short(func)}` looks the callable up by name in a module's namespace at run time "
            "(the analysis does not follow such lookups)"
        )

    def _namespace(self, expr: ast.AST, scope: Scope, top: bool = False) -> bool:
        """Whether `expr` is a module object or a namespace dict read by name (`namespace_lookup`); a name bound
        once to one is followed one step."""
        if isinstance(expr, ast.Name) and top:
            binding = self.ix.single_binding(expr.id, scope)
            if binding is not None and binding.kind is BindingKind.ASSIGN:
                return self._namespace(binding.node, binding.scope)
            return False
        if isinstance(expr, ast.Subscript):
            return self.ix.qualname(expr.value, scope) == "sys.modules"
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get":
            return self.ix.qualname(expr.func.value, scope) == "sys.modules"
        return any(self._builtin_call(expr, scope, name) for name in ("globals", "vars", "locals", "__import__"))

    def _namespace_dict(self, expr: ast.AST, scope: Scope) -> bool:
        """Whether `expr` calls `globals`, `vars` or `locals`: a dict, whose attributes are its methods."""
        return any(self._builtin_call(expr, scope, name) for name in ("globals", "vars", "locals"))

    def _builtin_call(self, expr: ast.AST, scope: Scope, name: str) -> bool:
        """Whether `expr` calls the builtin `name`, which no binding of the module shadows."""
        return (
            isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == name
            and not self.ix.lookup(name, scope)
        )

    def star_source(self, name: str) -> str:
        """Why `name`, which no statement of the module binds, may come from a star import of a module of the
        project (`from pkg import *`, whose names the analysis does not follow), in words naming the first
        one and its line; "" when the module star-imports none (a library's star import: not the project's
        code)."""
        for star in sorted(self.ix.star_imports(), key=lambda node: node.lineno):
            module = imported_module(self.ix, star)
            if module.startswith(".") or not self.follows(module):
                continue
            spelled = "." * (star.level or 0) + (star.module or "")
            return (
                f"`{name}` is bound by no statement of this module: it may come from `from {spelled} import *` "
                f"(line {star.lineno}), whose names the analysis does not follow"
            )
        return ""

    def is_getattr(self, call: ast.Call, scope: Scope) -> bool:
        """`getattr(obj, name)` with the builtin `getattr` and a name that is not a string constant."""
        return (
            isinstance(call.func, ast.Name)
            and call.func.id == "getattr"
            and not self.ix.lookup("getattr", scope)
            and len(call.args) >= 2
            and not isinstance(call.args[1], ast.Constant)
        )

    def library_value(self, expr: ast.AST, scope: Scope) -> bool:
        """Whether `expr` names a library module or object (`jnp`, `jax.nn`, `optax`): what is looked up in
        it is a library's callable, not code of the project the walk lost."""
        qname = self.ix.qualname(expr, scope)
        if qname is None:
            return False
        if qname.split(".")[0] in _STDLIB or not self.follows(qname):
            return True
        return self.project.lost(qname) is None and self.project.binding(qname) is None  # type: ignore[union-attr]

    def missing_member(self, attr: ast.Attribute, scope: Scope) -> str:
        """Why `self.name(...)` that `self_member` did not find is lost, or "" when the class may inherit it
        from a library (`self.param` of a flax Module) and the class declares no field `name`."""
        cls = self.members.enclosing_class(attr, scope)
        if cls is None:
            return ""
        if any(isinstance(s, ast.AnnAssign) and _is_name(s.target, attr.attr) for s in cls.body):
            return f"`self.{attr.attr}` is a field given where the object is built"
        outside = self.members.outside_base(cls)
        if outside is None:
            return f"`self.{attr.attr}` is not defined in its class or its bases (set at run time?)"
        if not (outside and self.follows(outside)):
            return ""  # a library's base class (flax's Module: `self.param`), or one without a name
        if self.project.kind_of(outside) is BindingKind.CLASS:  # type: ignore[union-attr]
            return f"`self.{attr.attr}` may come from `{outside}`, a class of another module (not followed)"
        if self.project.lost(outside) is not None:  # type: ignore[union-attr]
            return f"`self.{attr.attr}` may come from `{outside}`, a class of the project that is not followed"
        return ""

    def opaque_name(self, func: ast.Name, scope: Scope) -> bool:
        """A called name whose function spmdfix cannot see: a parameter, a loop or `with` target, or a
        name bound to a value that is not a function, a wrapper or a class of this module."""
        binding = self.ix.single_binding(func.id, scope)
        if binding is None:
            return bool(self.ix.lookup(func.id, scope))  # several bindings: unknown; none: a builtin
        if binding.kind is BindingKind.PARAM:
            return self.model.argument_for(binding) is None
        if binding.kind is BindingKind.OTHER:
            return True
        if binding.kind is BindingKind.ASSIGN:
            value = binding.node
            if isinstance(value, (ast.Lambda, ast.Name, ast.Attribute)):
                return False
            if isinstance(value, ast.Call):
                inner = value.func
                known = self.ix.qualname(inner, binding.scope) is not None or isinstance(inner, ast.Call)
                if isinstance(inner, ast.Name):
                    target = self.ix.single_binding(inner.id, binding.scope)
                    known = known or (target is not None and target.kind in (BindingKind.CLASS, BindingKind.DEF))
                return not known
            return True
        return False


def _is_name(target: ast.AST, name: str) -> bool:
    return isinstance(target, ast.Name) and target.id == name


def _short(node: ast.AST, width: int = 60) -> str:
    """`node`'s source, cut to `width` characters for a message."""
    text = ast.unparse(node)
    return text if len(text) <= width else text[: width - 3] + "..."
