"""Vmap factories a class holds that subclasses in other modules of the project apply (issue 22, never silent).

`class Base: def __init__(self, axis): self.vec = functools.partial(jax.vmap, spmd_axis_name=axis)` in
`pkg/base.py`, and `class Trainer(Base): def run(self, x): return self.vec(step)(x)` in `pkg/m.py`: the spmd
vmap runs in `pkg/m.py`, whose text names neither `vmap` nor `spmd_axis_name` (the prefilter drops it, as it
must drop most modules of a codebase), and whose analysis would need the base class's `__init__` bound to the
subclass's constructions in another module. The analysis of `pkg/base.py` (kept: it writes the factory) finds
each such application through the modules importing the class (`importers.imported_uses`, the budget of
`shared_sites`) and records it as a place it does not follow (SPMD910), naming the application, its module
and line, and the factory. Measured: `Trainer('x').run(x)` raises `vmap spmd_axis_name cannot appear in
shard_map in_specs` (safety/measurements/silent_spellings_issue22.py). Pure: the index reads.
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.analysis.follow import VMAP_FACTORY, Follow
from spmdfix.analysis.importers import imported_uses
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.uses import short
from spmdfix.analysis.vmap_sites import factory_of
from spmdfix.model import Span
from spmdfix.paths import relpath

# Importers read at most per class (as `shared_sites.SEARCH_BUDGET`): asked for every module-level class of a
# module that holds a vmap factory in an attribute.
SEARCH_BUDGET = 32


def applied_in_subclasses(model: ModuleModel) -> list[tuple[Span, Span, str]]:
    """(the factory's call, the application in another module, why) for each `self.NAME(...)` of a subclass in
    another module of the project whose class of this module assigns `NAME` a vmap factory
    (`partial(jax.vmap, spmd_axis_name=...)`, or a conditional expression holding one) and which the subclass
    does not assign itself. [] without a project index, or past the search budget."""
    if model.project is None:
        return []
    ix = model.ix
    out: list[tuple[Span, Span, str]] = []
    for stmt in ix.tree.body:
        if not isinstance(stmt, ast.ClassDef):
            continue
        held = _factories(model, stmt)
        if not held:
            continue
        found = imported_uses(
            model.project.index, model, stmt.name, values=False, models={model.project.path: model}, budget=SEARCH_BUDGET
        )
        if found is None:
            continue
        for importer, ends in found.reads:
            for end in ends:
                sub = importer.ix.parent.get(id(end))
                if not (isinstance(sub, ast.ClassDef) and any(b is end for b in sub.bases)):
                    continue
                own = importer.ev.members.members_of(sub)
                for attr, factory in held.items():
                    if attr in own[0] or attr in own[1]:
                        continue  # the subclass gives the attribute its own value: its module's analysis reads it
                    for call in _applications(sub, attr):
                        what = (
                            f"`{short(call)}` in class `{sub.name}` of {relpath(importer.ix.path)} (line {call.lineno}) "
                            f"applies `self.{attr}`, the vmap factory `{short(factory)}` that its base class "
                            f"`{stmt.name}` assigns (line {factory.lineno}): the spmd_axis_name it gets and the "
                            "function it vmaps in that subclass of another module are not followed"
                        )
                        out.append((model.span(factory), importer.ev.span(call), what))
    return out


def _factories(model: ModuleModel, cls: ast.ClassDef) -> dict[str, ast.AST]:
    """The attributes of `cls` (`self.NAME = ...` in its methods, `NAME = ...` in its body) one of whose values
    is a vmap factory, each with that value."""
    out: dict[str, ast.AST] = {}
    for attr, assigned in model.ev.members.members_of(cls)[1].items():
        for value, inner in assigned:
            if not (isinstance(value, (ast.Call, ast.IfExp)) and _passes_spmd(value)):
                continue  # (most `self.x = f(...)` of a module: no name resolved for them)
            if factory_of(model, value, inner, Follow(VMAP_FACTORY)):
                out.setdefault(attr, value)
    return out


def _applications(cls: ast.ClassDef, attr: str) -> list[ast.Call]:
    """The calls `self.attr(...)` in the methods of `cls` (`self` their first parameter), in source order."""
    out = []
    for method in cls.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or not method.args.args:
            continue
        this = method.args.args[0].arg
        for node in ast.walk(method):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == attr:
                if isinstance(node.func.value, ast.Name) and node.func.value.id == this:
                    out.append(node)
    return sorted(out, key=lambda c: (c.lineno, c.col_offset))


def _passes_spmd(value: ast.AST) -> bool:
    """Whether a call in `value` passes the `spmd_axis_name=` keyword (a factory is written so)."""
    return any(
        isinstance(n, ast.Call) and any(k.arg == jaxapi.VMAP_SPMD_KEYWORD for k in n.keywords) for n in ast.walk(value)
    )
