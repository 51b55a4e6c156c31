"""The constants a module spells axis names by: for a vmap site whose `spmd_axis_name` is a name or a module
attribute bound to an axis name (`spmd_axis_name=DATA`, `config.DATA`), the names visible there that hold other
axis names (`MODEL`, `config.MODEL`), so that rename writes `spmd_axis_name=MODEL` where the project spells
axes by constants instead of the literal `"model"` (newuser11's trial, finding 8).

A spelling is offered only when its value is proven the same string where the site's expression is evaluated:
the evaluator reads it as it reads `spmd_axis_name` itself (module constants here or in another module of the
project, writes by other modules making them unknown: `values.Evaluator.axis_names`); the name is bound once at
the module's top level and nothing between shadows it in the site's scope; at the module's top level the
binding comes before the site; and no other visible constant holds the same axis name (which one to write would
be a guess: the literal is written then).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.vmap_sites import VmapSite

_CONSTANT_KINDS = (BindingKind.ASSIGN, BindingKind.IMPORT, BindingKind.OTHER)


def axis_spelling(model: ModuleModel, site: VmapSite) -> Callable[[str], str | None]:
    """`spelling(axis)`: the code naming `axis` by a constant visible where the site's spmd_axis_name is written
    (see the module doc), or None (the literal is written). Read now, while the module's scopes answer lookups
    (`ModuleIndex.release` empties them before the fixes are planned); nothing for a literal spmd_axis_name."""
    found = _spellings(model, site) if isinstance(site.spmd_expr, (ast.Name, ast.Attribute)) else {}
    return found.get


def _spellings(model: ModuleModel, site: VmapSite) -> dict[str, str]:
    """axis name -> the code naming it by a constant (see `axis_spelling`)."""
    expr, scope, ix = site.spmd_expr, site.spmd_where, model.ix
    candidates: list[tuple[str, ast.expr]] = []  # (the code, its expression)
    if isinstance(expr, ast.Name):
        own = ix.single_binding(expr.id, scope)
        if own is None or own.scope is not ix.module_scope:
            return {}  # (a parameter or a local: the site does not spell the axis by a module constant)
        home = _imported_from(own)
        for n, bound in ix.module_scope.bindings.items():
            # (names imported from the module the site's own name comes from, or constants of this module:
            # modules the analysis read already, nothing more loaded for a spelling)
            if len(bound) != 1 or not ((home is not None and _imported_from(bound[0]) == home) or _literal_string(bound[0])):
                continue
            if _constant_here(model, n, expr, scope):
                candidates.append((n, ast.Name(id=n, ctx=ast.Load())))
    elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        base = expr.value.id
        qname = ix.qualname(expr.value, scope)
        project = model.ev.project
        found = project.resolve(qname) if project is not None and qname else None
        if found is None or found[1] is not None:
            return {}  # (not a module of the project: its names are not known)
        for n in found[0].model.ix.module_scope.bindings:
            candidates.append((f"{base}.{n}", ast.Attribute(value=ast.Name(id=base, ctx=ast.Load()), attr=n, ctx=ast.Load())))
    else:
        return {}
    by_axis: dict[str, list[str]] = {}
    for code, node in candidates:
        if code.rpartition(".")[2].startswith("__"):
            continue
        for sub in ast.walk(node):
            ast.copy_location(sub, expr)  # (positions for the evaluator's spans: the site's expression)
        try:
            read = model.ev.axis_names(node, scope)
        except Exception:  # noqa: BLE001 - a name the evaluator cannot read is no spelling
            read = None
        if read is not None and not read.is_tuple and len(read.names) == 1 and isinstance(read.names[0], str):
            by_axis.setdefault(read.names[0], []).append(code)
    return {axis: spelled[0] for axis, spelled in by_axis.items() if len(spelled) == 1}


def _imported_from(binding) -> str | None:
    """The module a `from M import n` binding imports from (its qualified name less the name), else None."""
    if binding.kind is not BindingKind.IMPORT or not binding.qname or "." not in binding.qname:
        return None
    return binding.qname.rpartition(".")[0]


def _literal_string(binding) -> bool:
    """Whether the binding assigns a string literal (`DATA = "data"`)."""
    return binding.kind is BindingKind.ASSIGN and isinstance(binding.node, ast.Constant) and isinstance(binding.node.value, str)


def _constant_here(model: ModuleModel, name: str, expr: ast.Name, scope) -> bool:
    """Whether module-level `name` is bound once, seen as that binding from `scope`, and (the site at the
    module's top level) bound before `expr`."""
    ix = model.ix
    bindings = ix.module_scope.bindings.get(name, [])
    if len(bindings) != 1 or bindings[0].kind not in _CONSTANT_KINDS:
        return False
    if ix.single_binding(name, scope) is not bindings[0]:
        return False
    if scope is ix.module_scope:
        line = getattr(bindings[0].node, "lineno", None)
        return line is not None and line < expr.lineno
    return True
