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
  `members.ClassMembers.written_in_other_spelling`).
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
    found = method_read(model.ix, expr, scope)
    if found is None:
        return None
    read, where = found
    owner = read.value
    assert isinstance(owner, ast.Name)
    binding = model.ix.single_binding(owner.id, where)
    if binding is None:
        return None
    if binding.kind is BindingKind.PARAM:
        func = _self_method(model, read, where, binding)
    elif binding.kind is BindingKind.ASSIGN and instances.built_here(owner, where):
        bound = instances.method_of(read, where)
        func = bound[1] if bound is not None and bound[0] is model else None
    else:
        return None
    if not isinstance(func, ast.FunctionDef) or func.decorator_list:
        return None
    if not [*func.args.posonlyargs, *func.args.args]:
        return None
    cls = model.ix.parent.get(id(func))
    if not isinstance(cls, ast.ClassDef) or not _plain_member(model, cls, func):
        return None
    home = binding.scope.node if not binding.scope.is_class and binding.scope is not model.ix.module_scope else None
    return MethodBody(func, read, owner.id, where, home, cls)


def _self_method(model: ModuleModel, read: ast.Attribute, where: Scope, binding) -> ast.AST | None:
    """The `def` `self.m` names in a method whose first parameter is `self` (not a `staticmethod` or
    `classmethod`), found as the call walk finds it, when no subclass of the project redefines `m`."""
    method = model.ix.parent.get(id(binding.node))
    if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if {d.id for d in method.decorator_list if isinstance(d, ast.Name)} & _BINDING_DECORATORS:
        return None
    member = model.members.self_member(read, where)
    if member is None or member[2]:
        return None  # not found, or a subclass defines it again: which `def` runs is not known
    return member[0]


def _plain_member(model: ModuleModel, cls: ast.ClassDef, func: ast.FunctionDef) -> bool:
    """Whether `func` is the one binding of its name in the body of `cls` and nothing else may set that name on
    the class or its instances: no `.name = ...` in the module, no store, decorator or metaclass that
    `instances.replaced_by` names, no other spelling `members.written_in_other_spelling` names."""
    inner = model.ix.own_scope(cls)
    if inner is None or len(inner.bindings.get(func.name, [])) != 1:
        return False
    if attribute_assigned(model.ix.source, func.name):
        return False
    if replaced_by(model, cls, func.name) is not None:
        return False
    return model.members.written_in_other_spelling(cls, func.name) is None
