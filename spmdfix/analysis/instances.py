"""Instances of the project's classes as the call walk meets them: the class a name holds (`blk = Block(w)`,
or a parameter annotated `block: Block`, as `nnx.vmap`'s functions take their modules), and the method an
attribute of it names (`blk.apply`).

Pure, over one module's `ModuleModel` and, for classes of other modules, its project index. Used by
`analysis.reach`; where the class cannot be known (a string annotation, a `Protocol` or abstract class, a
subclass that redefines the method, an attribute assigned on instances), it says so by giving None and the
walk reports the place (`analysis.lost_places`).
"""

from __future__ import annotations

import ast

from spmdfix.analysis.bindings import BindingKind, Scope
from spmdfix.analysis.lost_places import LostPlaces
from spmdfix.analysis.members import attribute_writes
from spmdfix.analysis.module_model import ModuleModel


class Instances:
    """The classes and methods instances stand for in one module (`model`); `lost` says which qualified names
    of the project the walk follows."""

    def __init__(self, model: ModuleModel, lost: LostPlaces) -> None:
        self.model = model
        self.ix = model.ix
        self.project = model.project
        self.lost = lost

    def qualname(self, expr: ast.AST, scope: Scope) -> str | None:
        return self.ix.qualname(expr, scope)

    def method_of(self, expr: ast.Attribute, scope: Scope) -> tuple[ModuleModel, ast.AST] | None:
        """`blk.apply` where `blk` is an instance of a class of the project (`class_of`): the method
        `apply` of that class (or of its bases in its module), with the model of the module defining it. None
        when `blk` is no such instance, the class does not define the method as a method, a subclass in its
        module defines it again, or an attribute of that name is assigned in either module (the instance may
        carry its own)."""
        if not isinstance(expr.value, ast.Name):
            return None
        found = self.class_of(expr.value, scope)
        if found is None:
            return None
        owner, cls = found
        if attribute_assigned(self.ix.source, expr.attr) or attribute_assigned(owner.ix.source, expr.attr):
            return None
        member = owner.members.member(cls, expr.attr)
        if member is None or not isinstance(member[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        if owner.members.overridden(cls, expr.attr) and not self.built_here(expr.value, scope):
            return None  # an annotated parameter: an instance of a subclass may come, with its own method
        return owner, member[0]

    def annotated_overridden(self, expr: ast.Attribute, scope: Scope) -> bool:
        """`block.apply` on a parameter annotated with a class of the project whose method `apply` a subclass
        of its module redefines (`method_of` then gives None: which method runs is not known)."""
        if not isinstance(expr.value, ast.Name) or self.built_here(expr.value, scope):
            return False
        found = self.class_of(expr.value, scope)
        if found is None:
            return False
        owner, cls = found
        member = owner.members.member(cls, expr.attr)
        return member is not None and owner.members.overridden(cls, expr.attr)

    def built_here(self, name: ast.Name, scope: Scope) -> bool:
        """Whether `name` is bound once to a construction (`blk = Block(w)`): its class is exactly that one."""
        binding = self.ix.single_binding(name.id, scope)
        return binding is not None and binding.kind is BindingKind.ASSIGN

    def class_of(self, name: ast.Name, scope: Scope) -> tuple[ModuleModel, ast.ClassDef] | None:
        """The class of the project whose instance `name` holds: a name bound once to a construction
        `Block(...)`, or a parameter annotated with the class (`def forward(block: Block, v)`: nnx.vmap's
        functions take their modules so), with the model of the module defining the class; None otherwise."""
        binding = self.ix.single_binding(name.id, scope)
        if binding is None:
            return None
        if binding.kind is BindingKind.ASSIGN and isinstance(binding.node, ast.Call):
            named, where = binding.node.func, binding.scope
        elif binding.kind is BindingKind.PARAM and getattr(binding.node, "annotation", None) is not None:
            named, where = binding.node.annotation, self.ix.scope_at(binding.node)  # type: ignore[attr-defined]
            if isinstance(named, ast.Constant) and isinstance(named.value, str):
                return None  # a string annotation: not read
        else:
            return None
        found: tuple[ModuleModel, ast.ClassDef] | None = None
        if isinstance(named, ast.Name):
            bound = self.ix.single_binding(named.id, where)
            if bound is not None and bound.kind is BindingKind.CLASS:
                found = self.model, bound.node  # type: ignore[assignment]
        if found is None:
            qname = self.qualname(named, where)
            if not self.lost.follows(qname):
                return None
            far = self.project.binding(qname)  # type: ignore[union-attr]
            if far is None or far[1].kind is not BindingKind.CLASS:
                return None
            found = far[0], far[1].node  # type: ignore[assignment]
        if binding.kind is BindingKind.PARAM and interface(found[0], found[1]):
            return None  # an annotation naming a Protocol or an abstract class: any implementation may come
        return found


_INTERFACE_BASES = frozenset({"typing.Protocol", "typing_extensions.Protocol", "abc.ABC"})


def interface(owner: ModuleModel, cls: ast.ClassDef) -> bool:
    """Whether `cls` only describes what its instances offer: a `Protocol`, an `abc.ABC` (or `ABCMeta`)
    class, or one with an `abstractmethod`. An annotation naming it says nothing of the callable passed."""
    scope = owner.ix.scope_at(cls)
    for base in cls.bases:
        target = base.value if isinstance(base, ast.Subscript) else base  # `Protocol[T]`
        if owner.ix.qualname(target, scope) in _INTERFACE_BASES:
            return True
    for kw in cls.keywords:
        if kw.arg == "metaclass" and owner.ix.qualname(kw.value, scope) == "abc.ABCMeta":
            return True
    inner = owner.ix.own_scope(cls)
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(owner.ix.qualname(d, inner) == "abc.abstractmethod" for d in stmt.decorator_list):  # type: ignore[arg-type]
                return True
    return False


def attribute_assigned(source: str, name: str) -> bool:
    """Whether `.name = ...` (or an augmented assignment) appears in the text: an instance may then carry an
    attribute `name` of its own, which its class's method does not tell."""
    return attribute_writes(source, name) > 0


def is_self_param(binding) -> bool:
    """Whether a parameter is the first of a method (`self`, `cls`): calling it is the object's `__call__`."""
    return binding.node.arg in ("self", "cls")
