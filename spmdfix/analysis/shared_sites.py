"""The other modules that run a vmap site's code with arguments this module does not see.

A vmap site whose vmapped function or spmd_axis_name is a parameter of a function of the module (`def
batched(fn): return jax.vmap(fn, spmd_axis_name='x')`, `class Trainer: def __init__(self, axis): self.vec =
partial(jax.vmap, spmd_axis_name=axis)`), or whose spmd_axis_name is the keyword of a vmap factory that other
code applies (`vec = partial(jax.vmap, spmd_axis_name='x')`, `self.vec`), is read through the calls of this
module (`ModuleIndex.argument_for`: every call here passes the same value). A module-level function, class or
factory of the module may also be imported by another module of the project and called there with another
function or axis: a fix rewriting the spmd_axis_name written inside it (add-axis, rename: `'x'` -> `'batch'` in
`batched`) changes that call too, whose shard_map and mesh the fix never saw (measured: golden
refuse/tree_shared_vmap_wrapper_other_caller, a call `batched(step2)` on a mesh without the new axis raises
after the fix). Those calls are found by `analysis.importers.imported_uses` and named; the fix is unsafe.
Pure: the index reads.
"""

from __future__ import annotations

import ast

from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.follow import Follow, VMAP_FACTORY
from spmdfix.analysis.importers import imported_uses, in_module
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.vmap_sites import VmapSite
from spmdfix.paths import relpath


# Importers read at most per name held (`importers.imported_uses`' budget): this is asked during the analysis of
# every parameterised vmap site, not only when a fix is judged.
SEARCH_BUDGET = 32


def shared_by(model: ModuleModel, site: VmapSite) -> tuple[str, ...]:
    """The places of other modules of the project that reach the code holding `site`'s spmd_axis_name with
    arguments of their own (module doc), as a reason names them (`Use.describe`); () when the site is not
    parameterised (a plain `jax.vmap(f, spmd_axis_name=...)` of fixed operands: every caller runs the same
    vmap) or nothing else imports its holder."""
    if model.project is None or not _parameterised(model, site):
        return ()
    owners = _module_level_owners(model, site.spmd_expr)
    if not owners:
        return ()
    places: list[str] = []
    places += [model.uses.use(e).describe() for e in _escapes(model, owners)]
    for name in owners:
        found = imported_uses(
            model.project.index, model, name, values=False, models={model.project.path: model}, budget=SEARCH_BUDGET
        )
        if found is None:
            places.append(
                f"the modules that may import `{name}` of {relpath(model.project.path)} ("
                f"{model.project.index.importers_unknown_why()}, or more than {SEARCH_BUDGET} of them would have to be "
                "read: not searched)"
            )
            continue
        places += [u.describe() for u in found.sites]
        for importer, ends in found.reads:
            places += [in_module(importer.uses.use(e), importer.ix.path, importer).describe() for e in ends]
    return tuple(dict.fromkeys(places))


def _escapes(model: ModuleModel, owners: list[str]) -> list[ast.expr]:
    """Where a vmap factory of the module (a module-level `vec = partial(jax.vmap, ...)`, or one a class holds:
    `self.vec = ...` in a method, `vec = ...` in its body) leaves for code the analysis does not see: the
    factory's name read other than called (`apply(vec)`), the class's name read other than constructed
    (`class Sub(Trainer)`, `make(Trainer)`), an instance read other than through an attribute (`apply(Trainer())`,
    `t = Trainer(); apply(t)`), and `self` read other than through an attribute in a method (`apply(self)`).
    Another module given the object may apply the factory to its own function and mesh (measured:
    `apply(Trainer())` in another module's `t.vec(step2)` raised KeyError: 'batch' after add-axis)."""
    ix = model.ix
    out: list[ast.expr] = []
    for name in owners:
        binding = ix.single_binding(name, ix.module_scope)
        if binding is None:
            continue
        cls = binding.node if isinstance(binding.node, ast.ClassDef) else None
        held = _factory_attributes(cls) if cls is not None else set()
        for load in model.uses.loads(binding):
            up = ix.parent.get(id(load))
            if not (isinstance(up, ast.Call) and up.func is load):
                out.append(load)
            elif cls is not None:
                out += _instance_escapes(model, up, held)
        if cls is not None:
            for func in cls.body:
                if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) and func.args.args:
                    this = func.args.args[0].arg
                    for node in ast.walk(func):
                        if isinstance(node, ast.Name) and node.id == this and isinstance(node.ctx, ast.Load):
                            if _escaping(model, node, held):
                                out.append(node)
    return out


def _factory_attributes(cls: ast.ClassDef) -> set[str]:
    """The attributes of `cls` assigned a call passing `spmd_axis_name=` (`self.vec = partial(jax.vmap, ...)`,
    `vec = ...` in its body)."""
    out = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            if any(k.arg == "spmd_axis_name" for k in node.value.keywords):
                out |= {t.attr for t in node.targets if isinstance(t, ast.Attribute)}
                out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return out


def _escaping(model: ModuleModel, read: ast.expr, held: set[str]) -> bool:
    """Whether a read of an instance leaves the module's sight: read other than through an attribute, or
    through a factory attribute not called there (`apply(t.vec)`)."""
    up = model.ix.parent.get(id(read))
    if not isinstance(up, ast.Attribute):
        return True
    if isinstance(up.ctx, ast.Store):
        return False  # `self.vec = partial(...)`: the factory's own assignment, no read of it
    if up.attr in held:
        call = model.ix.parent.get(id(up))
        return not (isinstance(call, ast.Call) and call.func is up)
    return False


def _instance_escapes(model: ModuleModel, construction: ast.Call, held: set[str]) -> list[ast.expr]:
    """The reads of an instance built by `construction` that leave the module's sight (`_escaping`): passed
    on (`apply(Trainer())`, `t = Trainer(); apply(t)`), its factory read without a call (`apply(t.vec)`)."""
    ix = model.ix
    up = ix.parent.get(id(construction))
    if isinstance(up, ast.Attribute):
        return [construction] if _escaping(model, construction, held) else []
    if isinstance(up, ast.Assign) and len(up.targets) == 1:
        binding = model.uses.target_binding(up.targets[0], construction)
        if binding is not None:
            return [n for n in model.uses.loads(binding) if _escaping(model, n, held)]
    return [construction]


def _parameterised(model: ModuleModel, site: VmapSite) -> bool:
    """Whether the site's vmapped function or spmd_axis_name comes from a parameter (through names), or its
    spmd_axis_name is a keyword outside the vmap call (a factory: `partial(jax.vmap, spmd_axis_name=...)`)."""
    if not _within(site.spmd_expr, site.node, model):
        return True
    return _from_parameter(model, site.fun, site.scope) or _from_parameter(model, site.spmd_expr, site.spmd_where)


def _within(node: ast.AST, root: ast.AST, model: ModuleModel) -> bool:
    return any(n is node for n in ast.walk(root))


def _from_parameter(model: ModuleModel, expr: ast.AST | None, scope) -> bool:
    ix = model.ix
    follow = Follow(VMAP_FACTORY)
    while isinstance(expr, ast.Name) and not follow.spent:
        binding = ix.single_binding(expr.id, scope)
        if binding is None:
            return False
        if binding.kind is BindingKind.PARAM:
            return True
        if binding.kind is not BindingKind.ASSIGN:
            return False
        expr, scope = binding.node, binding.scope
        follow = follow.deeper()
    return False


def _module_level_owners(model: ModuleModel, node: ast.AST) -> list[str]:
    """The module-level names other modules may import to reach `node`: the function or class whose body holds
    it, or the names a module-level assignment holding it binds."""
    # (by position: the parent map does not hold every node, a keyword's value among them)
    line = getattr(node, "lineno", None)
    top = next((s for s in model.ix.tree.body if line is not None and s.lineno <= line <= (s.end_lineno or s.lineno)), None)
    if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [top.name]
    if isinstance(top, (ast.Assign, ast.AnnAssign)):
        targets = top.targets if isinstance(top, ast.Assign) else [top.target]
        return [t.id for t in targets if isinstance(t, ast.Name)]
    return []

