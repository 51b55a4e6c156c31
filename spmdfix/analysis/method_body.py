"""A bound method as a shard_map body: `jax.shard_map(self._block, ...)`, `jax.shard_map(layer.block, ...)`.

Reading `self._block` off an instance gives a bound method: calling it runs the `def _block(self, x, w)` of the
instance's class with `self` already bound, so the shard_map's operands (and its in_specs) line up with the
parameters after `self`, and what the body reads through `self` is a value of the instance, closed over as a
closure's free variables are (SPMD003 decides whether the vmap batches it).

The method is resolved with the call walk's own resolvers (`members.ClassMembers.self_member`,
`instances.Instances.method_of`) under the conditions that make the `def` the one that runs:
- `self.m` read in a method (not a `staticmethod` / `classmethod`: `cls.m` is an unbound function) of class C
  of this module, or `inst.m` with `inst = C(...)` bound once (its class is exactly C);
- `m` a plain method of C or of a base of this module: a `def` bound once in its class body, undecorated
  (no `staticmethod`, `classmethod`, `property` or any wrapper), taking at least the bound parameter;
- no subclass of the project defines `m` again (for `self.m`: `self` may be an instance of it), no
  `.m = ...` anywhere in the module, and nothing else may set `m` on the class or its instances
  (`instances.replaced_by`: an unknown class decorator, a metaclass, a store or `setattr` in the project;
  `members.ClassMembers.written_in_other_spelling`);
- attribute reads of the instance are Python's default lookup: no class from the instance's class up its bases
  (this module's, the project's, and for a library base only one of `PLAIN_LOOKUP_BASES`), nor a subclass of
  the project for `self.m`, defines `__getattribute__`, which decides what `self.m` gives whatever the class
  body binds (`_custom_lookup`; a lead's probe: a `__getattribute__` returning another function for `_block`
  left strip SAFE while the function that ran was not the one read).
Anything else stays unresolved, as before: "the shard_map body is not a function of this module".

Pure: reads the module's model and, through it, the project index.
"""

from __future__ import annotations

import ast

from spmdfix.analysis.bindings import BindingKind, Scope
from spmdfix.analysis.instances import Instances, attribute_assigned, replaced_by
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.shard_maps import method_read
from spmdfix.perf import frozen

_BINDING_DECORATORS = frozenset({"staticmethod", "classmethod"})

# Library bases whose instances read attributes by Python's default lookup and whose subclasses keep the `def`s
# their bodies bind: no class of their MRO but `object` defines `__getattribute__`, and a method a subclass
# defines is the function in its `__dict__` (flax.linen's `Module` wraps methods as a subclass is made: left out).
# tests/test_method_body.py checks each against the installed package.
PLAIN_LOOKUP_BASES = frozenset({"object", "abc.ABC", "flax.nnx.Module", "flax.struct.PyTreeNode"})


@frozen(eq=False, repr=False)
class MethodBody:
    """A shard_map body that is a bound method of a class of this module.

    func: the method's `def`; read: the attribute the shard_map is given (`self._block`); owner: the name the
    method is read off (`self`, `layer`), with the scope it is read in (`owner_scope`) and the function binding
    it (`home`, None for a module-level instance); cls: the class whose method it is; bound: how many leading
    parameters the read binds (1: `self`), which the in_specs do not cover."""

    func: ast.FunctionDef
    read: ast.Attribute
    owner: str
    owner_scope: Scope
    home: ast.AST | None
    cls: ast.ClassDef
    bound: int = 1

    @property
    def instance(self) -> str:
        """The name of the body's bound parameter (`self`), through which it reads the instance."""
        return [*self.func.args.posonlyargs, *self.func.args.args][0].arg

    def words(self) -> str:
        """How a reason names the body: "`self._block`, a method of `MLP`"."""
        return f"`{ast.unparse(self.read)}`, a method of `{self.cls.name}`"


def method_body(model: ModuleModel, instances: Instances, expr: ast.AST | None, scope: Scope) -> MethodBody | None:
    """The bound method a shard_map body `expr` (read in `scope`) is, under the conditions of the module
    docstring; None otherwise."""
    found = _resolve(model, instances, expr, scope)
    return found if isinstance(found, MethodBody) else None


def method_body_why_not(model: ModuleModel, instances: Instances, expr: ast.AST | None, scope: Scope) -> str:
    """Why a shard_map body read as an attribute of a name (`self._block`) is not resolved to a method, in words
    completing "the shard_map body `self._block` is not a function of this module: ..."; "" when it is resolved
    or is not such a read."""
    found = _resolve(model, instances, expr, scope)
    return found if isinstance(found, str) else ""


def _resolve(model: ModuleModel, instances: Instances, expr: ast.AST | None, scope: Scope) -> MethodBody | str:
    """`method_body`, or why not ("" when the body is not an attribute of a name)."""
    found = method_read(model.ix, expr, scope)
    if found is None:
        return ""
    read, where = found
    owner = read.value
    assert isinstance(owner, ast.Name)
    name = read.attr
    binding = model.ix.single_binding(owner.id, where)
    if binding is None:
        return ""
    if binding.kind is BindingKind.PARAM:
        func = _self_method(model, read, where, binding)
    elif binding.kind is BindingKind.ASSIGN and instances.built_here(owner, where):
        bound = instances.method_of(read, where)
        func = bound[1] if bound is not None and bound[0] is model else None
        if func is None:
            func = f"`{owner.id}` is an instance whose method `{name}` is not a `def` of a class of this module spmdfix reads"
    else:
        return ""
    if isinstance(func, str):
        return func
    if not isinstance(func, ast.FunctionDef):
        return f"`{name}` is not a `def` the analysis reads"
    if func.decorator_list:
        return f"`{name}` is decorated (line {func.decorator_list[0].lineno}), so reading it may not give the `def`"
    if not [*func.args.posonlyargs, *func.args.args]:
        return f"`{name}` takes no parameter to bind the instance to"
    cls = model.ix.parent.get(id(func))
    if not isinstance(cls, ast.ClassDef):
        return f"`{name}` is not a method of a class of this module"
    why = _replaced(model, cls, func)
    if why:
        return why
    why = _custom_lookup(model, instances, read, where, cls)
    if why:
        return why
    home = binding.scope.node if not binding.scope.is_class and binding.scope is not model.ix.module_scope else None
    return MethodBody(func, read, owner.id, where, home, cls)


def _self_method(model: ModuleModel, read: ast.Attribute, where: Scope, binding) -> ast.AST | str:
    """The `def` `self.m` names in a method whose first parameter is `self` (not a `staticmethod` or
    `classmethod`), found as the call walk finds it, when no subclass of the project redefines `m`; else why
    not, or "" when `self` is no such parameter."""
    method = model.ix.parent.get(id(binding.node))
    if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return ""
    if not isinstance(model.ix.parent.get(id(method)), ast.ClassDef) or [*method.args.posonlyargs, *method.args.args][:1] != [binding.node]:
        return ""
    if {d.id for d in method.decorator_list if isinstance(d, ast.Name)} & _BINDING_DECORATORS:
        return f"`{method.name}` is a staticmethod or classmethod, where `{read.value.id}` is not an instance"  # type: ignore[attr-defined]
    member = model.members.self_member(read, where)
    if member is None:
        return f"`{read.attr}` is not a member of the class or its bases in this module"
    if member[2]:
        return f"a subclass redefines `{read.attr}`, so which `def` runs is not known"
    return member[0]


def _replaced(model: ModuleModel, cls: ast.ClassDef, func: ast.FunctionDef) -> str:
    """Why `func` may not be the one binding of its name on `cls` and its instances ("" when it is): bound
    several times in the class body, `.name = ...` in the module, a store, decorator or metaclass
    `instances.replaced_by` names, another spelling `members.written_in_other_spelling` names."""
    inner = model.ix.own_scope(cls)
    if inner is None or len(inner.bindings.get(func.name, [])) != 1:
        return f"`{cls.name}` binds `{func.name}` more than once in its body"
    if attribute_assigned(model.ix.source, func.name):
        return f"this module assigns `.{func.name} = ...`, which may give an instance its own `{func.name}`"
    replaced = replaced_by(model, cls, func.name)
    if replaced is not None:
        return f"`{cls.name}` {replaced}"
    other = model.members.written_in_other_spelling(cls, func.name)
    return f"`.{func.name}` may be written: {other}" if other else ""


def custom_getattribute(
    model: ModuleModel, instances: Instances, read: ast.Attribute, where: Scope, home: ModuleModel, func: ast.AST
) -> str:
    """Why the method `func` (of module `home`) that the call walk resolved `read` (`self.m`, `inst.m`, read in
    `where` of `model`) to may not be what the read gives, in words ("" when it is): a class of the project from
    the instance's class up its bases, or for `self.m` a subclass, defines `__getattribute__` (library bases are
    not asked here: the walk reads their subclasses' methods as before). `OPS.scale(b)` with `Ops.__getattribute__`
    returning a function applying `lax.cond` for `scale` kept rename SAFE while that function ran, and the renamed
    program raised `pvary is a invariant->variant collective` (breaker16 g01, g02, g04)."""
    cls = home.ix.parent.get(id(func))
    if not isinstance(cls, ast.ClassDef):
        return ""
    return _custom_lookup(model, instances, read, where, cls, home=home, strict=False)


def _custom_lookup(
    model: ModuleModel, instances: Instances, read: ast.Attribute, where: Scope, cls: ast.ClassDef,
    home: ModuleModel | None = None, strict: bool = True,
) -> str:
    """Why reading `read` (`self.m`, `inst.m`) off the instance may not be Python's default attribute lookup
    ("" when it is): a class from the instance's class up its bases, or for `self.m` a subclass of the
    project, defines `__getattribute__`, or (`strict`) a base is a library class not in `PLAIN_LOOKUP_BASES`. The
    instance's class is the one whose method binds `self`, or the class `inst` is built from (`cls`, the class
    defining the method in module `home`, default `model`, when neither is known)."""
    owner, start = home or model, cls
    if isinstance(read.value, ast.Name):
        enclosing = model.members.enclosing_class(read, where)
        built = instances.class_of(read.value, where) if enclosing is None else None
        if enclosing is not None:
            start = enclosing
            if model.members.overridden(enclosing, "__getattribute__"):
                return f"a subclass of `{enclosing.name}` defines `__getattribute__`, which decides what `{ast.unparse(read)}` gives"
        elif built is not None:
            owner, start = built
    return _lookup_in_bases(owner, start, read, strict=strict)


def _lookup_in_bases(owner: ModuleModel, cls: ast.ClassDef, read: ast.Attribute, depth: int = 0, strict: bool = True) -> str:
    """`_custom_lookup` over `cls` (of module `owner`) and its bases, a few levels up (`strict`: a library base
    not in `PLAIN_LOOKUP_BASES`, or bases deeper than read, count as defining `__getattribute__`)."""
    shown = ast.unparse(read)
    if depth > 6:
        return f"the bases of `{cls.name}` go deeper than spmdfix reads, and one may define `__getattribute__`" if strict else ""
    inner = owner.ix.own_scope(cls)
    if inner is not None and "__getattribute__" in inner.bindings:
        return f"`{cls.name}` defines `__getattribute__`, which decides what `{shown}` gives"
    replaced = replaced_by(owner, cls, "__getattribute__")
    if replaced is not None:
        return f"`{cls.name}` {replaced}"
    scope = owner.ix.scope_at(cls)
    for base in cls.bases:
        if isinstance(base, ast.Name):
            bound = owner.ix.single_binding(base.id, scope)
            if bound is not None and bound.kind is BindingKind.CLASS:
                why = _lookup_in_bases(owner, bound.node, read, depth + 1, strict)
                if why:
                    return why
                continue
        qname = owner.ix.qualname(base, scope) if isinstance(base, (ast.Name, ast.Attribute)) else None
        if qname in PLAIN_LOOKUP_BASES:
            continue
        project = owner.project
        found = project.binding(qname) if project is not None and qname and project.follows(qname) else None
        if found is not None and found[1].kind is BindingKind.CLASS:
            why = _lookup_in_bases(found[0], found[1].node, read, depth + 1, strict)
            if why:
                return why
            continue
        if not strict:
            continue
        return (
            f"`{cls.name}` has the base `{ast.unparse(base)}`, which spmdfix does not read: it may define "
            f"`__getattribute__`, which decides what `{shown}` gives"
        )
    return ""
