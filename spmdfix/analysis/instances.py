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
from typing import NamedTuple

from spmdfix.analysis.bindings import BindingKind, Scope
from spmdfix.analysis.follow import BASES, Follow
from spmdfix.analysis.lost_places import LostPlaces, builtin_name
from spmdfix.analysis.members import attribute_writes, unknown_decorator
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.uses import short
from spmdfix.analysis.writes import class_attribute_write
from spmdfix.paths import relpath


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
        """`blk.apply` where `blk` is an instance of a class of the project (`class_of`), `Block(w).apply`
        (an instance built there), `self.block.apply` in a method (`self.block = Block(w)` its class's one
        assignment: `_held_by_self`), or `Block.apply` (read off a class of this module): the method `apply` of that class (or of its bases in its module), with the
        model of the module defining it. None when `blk` is no such instance, the class does not define the
        method as a method, a subclass in its module defines it again, or an attribute of that name is
        assigned in either module (the instance may carry its own)."""
        if isinstance(expr.value, ast.Call):
            found, exact = self._class_named(expr.value.func, scope), True
        elif self.names_class(expr.value, scope):
            found, exact = self._class_named(expr.value, scope), True  # `Block.apply`: read off the class
        elif isinstance(expr.value, ast.Name):
            found, exact = self.class_of(expr.value, scope), self.built_here(expr.value, scope)
        elif isinstance(expr.value, ast.Attribute):
            found, exact = self._held_by_self(expr.value, scope), True
        else:
            return None
        if found is None:
            return None
        owner, cls = found
        if attribute_assigned(self.ix.source, expr.attr) or attribute_assigned(owner.ix.source, expr.attr):
            return None
        member = owner.members.member(cls, expr.attr)
        home = owner
        if member is None:
            # Not in the class nor its bases of its module: the first base from another module of the project
            # (`class Wide(Block)`, `Block` imported), a few modules deep (issue 22: was silent).
            home, member = _inherited(owner, cls, expr.attr)
        if member is None or not isinstance(member[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        if owner.members.overridden(cls, expr.attr) and not exact:
            return None  # an annotated parameter: an instance of a subclass may come, with its own method
        return home, member[0]

    def callee(self, expr: ast.AST, scope: Scope) -> tuple[ast.AST, int] | None:
        """The function of this module that calling `expr` runs, with how many of its leading parameters the
        call does not pass (the `self` or `cls` the reading binds): a function or a name bound to one (0);
        `blk.apply` on an instance of a class of this module (`method_of`) and `self.name` in a method
        (`members.ClassMembers.self_member`) (1, or 0 for a `staticmethod`); `Block.apply` read off the class
        (0, or 1 for a `classmethod`); an instance (`layer` with `layer = Layer()`, `Layer()`, or a parameter
        annotated with the class), whose `__call__` runs (1). `jax.vmap`'s `in_axes` and a call's arguments
        line up with the parameters after those. None for anything else: a method another module defines, a
        value, an annotated instance whose method a subclass redefines (the caller then follows nothing)."""
        func = self.ix.function_of(expr)
        if func is not None:
            return func, 0
        if isinstance(expr, ast.Attribute):
            return self._method_read(expr, scope)
        cls = None
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
            bound = self.ix.single_binding(expr.func.id, scope)
            cls = bound.node if bound is not None and bound.kind is BindingKind.CLASS else None
        elif isinstance(expr, ast.Name):
            found = self.class_of(expr, scope)
            if found is not None and found[0] is self.model:
                overridden = self.model.members.overridden(found[1], "__call__")
                cls = found[1] if self.built_here(expr, scope) or not overridden else None
        member = self.model.members.member(cls, "__call__") if cls is not None else None
        if member is None or not isinstance(member[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        return member[0], _bound_parameters(member[0], True)

    def _method_read(self, expr: ast.Attribute, scope: Scope) -> tuple[ast.AST, int] | None:
        """`callee` of an attribute: `self.name`, `blk.name` on an instance, `Block.name` on a class."""
        member = self.model.members.self_member(expr, scope)
        if member is not None:
            # the method the call walk follows (`reach.Reacher`), also when a subclass redefines it; `cls.name`
            # in a classmethod reads it off the class
            func = member[0]
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return None  # a value
            binding = self.ix.single_binding(expr.value.id, scope)  # type: ignore[attr-defined]
            method = self.ix.parent.get(id(binding.node)) if binding is not None else None
            return func, _bound_parameters(func, "classmethod" not in _decorator_names(method))
        bound = self.method_of(expr, scope)
        if bound is None or bound[0] is not self.model:
            return None
        return bound[1], _bound_parameters(bound[1], not self.names_class(expr.value, scope))

    def names_class(self, expr: ast.AST, scope: Scope) -> bool:
        """Whether `expr` is a name bound once, in this module, to a class."""
        if not isinstance(expr, ast.Name):
            return False
        binding = self.ix.single_binding(expr.id, scope)
        return binding is not None and binding.kind is BindingKind.CLASS

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
        found = self._class_named(named, where)
        if found is not None and binding.kind is BindingKind.PARAM and interface(found[0], found[1]):
            return None  # an annotation naming a Protocol or an abstract class: any implementation may come
        return found

    def class_named(self, named: ast.AST, where: Scope) -> tuple[ModuleModel, ast.ClassDef] | None:
        """The class of the project the expression `named` (a name or an attribute, read in `where`) is, with
        the model of its module; None otherwise."""
        return self._class_named(named, where)

    def _held_by_self(self, expr: ast.Attribute, scope: Scope) -> tuple[ModuleModel, ast.ClassDef] | None:
        """The class of the project whose instance `self.block` holds inside a method: the one value the class
        assigns to it (`members.ClassMembers.self_member`: `self.block = Block(w)` in `__init__`) is a
        construction of that class; None otherwise, or when a subclass of this module assigns it again
        (`self.block.apply(v)` was silent while `self.block(v)` was followed)."""
        member = self.model.members.self_member(expr, scope)
        if member is None or member[2] or not isinstance(member[0], ast.Call):
            return None
        return self._class_named(member[0].func, member[1])

    def _class_named(self, named: ast.AST, where: Scope) -> tuple[ModuleModel, ast.ClassDef] | None:
        """The class of the project the expression `named` (read in `where`) is, with the model of its module."""
        if isinstance(named, ast.Name):
            bound = self.ix.single_binding(named.id, where)
            if bound is not None and bound.kind is BindingKind.CLASS:
                return self.model, bound.node  # type: ignore[return-value]
        qname = self.qualname(named, where)
        if not self.lost.follows(qname):
            return None
        # (`whole`: `ops.Ops.f` is a member of the class `Ops`, not the class: `Ops.f(b)` was read as building an
        # `Ops`, and the staticmethod `f` applying `lax.cond` was never read, breaker16 x10)
        far = self.project.binding(qname, whole=True)  # type: ignore[union-attr]
        if far is None or far[1].kind is not BindingKind.CLASS:
            return None
        return far[0], far[1].node  # type: ignore[return-value]


_INTERFACE_BASES = frozenset({"typing.Protocol", "typing_extensions.Protocol", "abc.ABC"})


# --- the special method an implicit call runs (`Layer()(x)`: `type(inst).__call__`) -------------------------
class TypeMember(NamedTuple):
    """Where the lookup of a special method on a class of the project (`type_member`) finds it: `home`, the model
    of the module whose class body binds it; `node`, the `def`, or the value assigned to the name in the class
    body (`__call__ = _apply`, followed as a callable there); `scope`, the scope `node` is read in."""

    home: ModuleModel
    node: ast.AST
    scope: Scope


class NotFollowed(NamedTuple):
    """Why `type_member` cannot tell which definition runs, in words (the tail of an SPMD910 record); `library`:
    only because a base is a library's class (whose `__call__` may run the project's code: a record; whose
    `__init__` is a library call, as any other: none)."""

    why: str
    library: bool


# Library bases that define neither `__call__` nor an `__init__` running the project's code (the builtins but
# `type` are read so too: `lost_places.builtin_name`)
_EMPTY_LIBRARY_BASES = frozenset({
    "typing.Generic", "typing.Protocol", "typing_extensions.Protocol", "typing.NamedTuple", "abc.ABC",
    "enum.Enum", "enum.IntEnum", "object",
})


def type_member(
    owner: ModuleModel, cls: ast.ClassDef, name: str, follow: Follow | None = None, as_base: bool = False
):
    """The special method `name` an implicit call on an instance of `cls` (a class of module `owner`) runs, as
    Python looks it up: on the class and its bases, never on the instance (`Layer()(x)` runs
    `type(layer).__call__`; `Layer(...)` runs its class's `__init__`). Bases are read in their modules: this
    module's classes, the project's through its index (`ProjectLink.binding`), as `method_of` does.

    Returns a `TypeMember` (the class body binding it: its own, else its first base's that does, when the
    order of Python's MRO does not matter: one base, the first base defining it in its own body, or one
    definition among all bases); a `NotFollowed` when the definition that runs is not known (a base the
    analysis cannot resolve or a library's, several bases defining it differently, the name bound in the class
    body several times or by a statement other than `def` and a plain assignment); None when no class on the
    way defines it (the builtins' `object` does: nothing of the project runs). A `def` decorated in the class
    body is given as the `def` (the reach walk reads its decorators).

    Every class the lookup walks may have its `name` set by code other than its body (`replaced_by`): a
    `NotFollowed` then (breaker11 a10, a11, a14, a49 read the base's `__call__` while a plain one ran). `as_base`:
    `cls` is walked as a base of the class asked (its `__init_subclass__` runs for that class)."""
    follow = follow or Follow(BASES)
    if follow.spent:
        return NotFollowed(f"`{cls.name}`'s bases are more than {BASES.limit} classes deep", False)
    replaced = replaced_by(owner, cls, name, as_base)
    if replaced is not None:
        return NotFollowed(f"`{cls.name}` {replaced}", False)
    inner = owner.ix.own_scope(cls)
    bound = inner.bindings.get(name, []) if inner is not None else []
    if len(bound) > 1:
        return NotFollowed(f"`{cls.name}` binds `{name}` {len(bound)} times in its body", False)
    if bound:
        return _bound_in_body(owner, cls, bound[0], follow)
    if name == "__init__" and _generates_init(owner, cls):
        return None  # the dataclass's own `__init__` (library code: its bases' is not called)
    found = [_through_base(owner, cls, base, name, follow) for base in cls.bases]
    if not found or all(f is None for f in found):
        return None
    if len(found) == 1:
        return found[0]
    first = next(f for f in found if f is not None)
    if isinstance(first, TypeMember) and first.scope.node in _direct_bases(owner, cls):
        return first  # a base defining it in its own body precedes every class after it in the MRO
    defs = {id(f.node): f for f in found if isinstance(f, TypeMember)}
    lost = [f for f in found if isinstance(f, NotFollowed)]
    if not lost and len(defs) == 1:
        return first
    if lost and not defs:
        return NotFollowed(lost[0].why, all(f.library for f in lost))
    return NotFollowed(
        f"`{cls.name}` has {len(cls.bases)} bases, and which of their `{name}`s runs is not followed", False
    )


def static_value(owner: ModuleModel, cls: ast.ClassDef, name: str) -> TypeMember | None:
    """What `Cls.name` gives when the body of `cls` (a class of module `owner`) binds `name` once, to
    `staticmethod(v)` of the builtin with one positional argument, and no code outside the body sets it
    (`replaced_by`): `v` itself, read where the body reads it, as attribute access on the class or an instance
    unwraps a staticmethod (`jax.vmap(Layer.fn, ...)` with `fn = staticmethod(jax.shard_map(...))`: silent
    before, safety/trials/newuser13 probe ef3). None otherwise. Not for implicit special-method calls, whose
    arguments differ (`type_member`)."""
    if replaced_by(owner, cls, name, False) is not None:
        return None
    inner = owner.ix.own_scope(cls)
    bound = inner.bindings.get(name, []) if inner is not None else []
    if len(bound) != 1 or bound[0].kind is not BindingKind.ASSIGN:
        return None
    value = bound[0].node
    if not (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "staticmethod"
        and not owner.ix.lookup("staticmethod", bound[0].scope)
        and len(value.args) == 1 and not value.keywords and not isinstance(value.args[0], ast.Starred)
    ):
        return None
    return TypeMember(owner, value.args[0], bound[0].scope)


def _bound_in_body(owner: ModuleModel, cls: ast.ClassDef, binding, follow: Follow):
    """`type_member` of a name the class body binds once: a `def` (`TypeMember`); an assignment of another
    class's member (`__call__ = Base.__call__`, `pkg.base.Base.__call__`: that class's lookup) or of any other
    value (`__call__ = _apply`: the value, followed as a callable where it is written); `NotFollowed` else."""
    if binding.kind is BindingKind.DEF:
        return TypeMember(owner, binding.node, owner.ix.scope_at(binding.node))
    if binding.kind is not BindingKind.ASSIGN:
        return NotFollowed(
            f"`{cls.name}` binds `{binding.name}` in its body by a statement other than `def` or `=`", False
        )
    value = binding.node
    if isinstance(value, ast.Call) and _descriptor_maker(owner, value.func, binding.scope):
        # `__call__ = staticmethod(_plain)`, `functools.partialmethod(Base.__call__)` (breaker11 k03, k04: silent):
        # what the descriptor calls, and with which arguments, is not followed
        return NotFollowed(
            f"`{cls.name}` binds `{binding.name}` to `{short(value)}` (line {value.lineno}), a descriptor whose "
            "call spmdfix does not follow", False
        )
    if isinstance(value, ast.Attribute):
        other = _class_of_expr(owner, value.value, binding.scope)
        if isinstance(other, tuple):
            home, far = other
            return type_member(home, far, value.attr, follow.deeper()) or NotFollowed(
                f"`{short(value)}`, assigned to `{binding.name}` in `{cls.name}`, is defined by no class the "
                "analysis reads", False
            )
    return TypeMember(owner, value, binding.scope)


# Metaclasses known to define no `__call__` nor `__new__` that change what `Cls()` gives or its members
_KNOWN_METACLASSES = frozenset({"abc.ABCMeta", "type"})


def replaced_by(owner: ModuleModel, cls: ast.ClassDef, name: str, as_base: bool = False) -> str | None:
    """Why the special method `name` of class `cls` (of module `owner`) may be other than its body and bases
    bind, in words completing "`Cls` ..." (None when nothing is seen that may): a class decorator spmdfix does not
    know as harmless (`members.unknown_decorator`: it may set `cls.__call__` or return another class, a49); a
    `metaclass=` (its `__call__` decides what `Cls()` returns, a11); an `__init_subclass__` in its body, when
    `cls` is walked as a base (`as_base`: it runs for every subclass and may set `cls.__call__`, a10); a store
    `.name = ...` or `setattr(..., 'name', ...)` on some object in its module's text or, through the project
    index, in any module of the project (`Layer.__call__ = _plain` after the class, a14:
    `writes.class_attribute_write`). The project-wide search is on the text: which class a store sets is not
    followed, so one store anywhere counts."""
    decorator = unknown_decorator(owner.ix, cls)
    if decorator is not None:
        shown = ast.unparse(decorator)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        return (
            f"is decorated by `@{shown}` (line {decorator.lineno}), a decorator spmdfix does not know, which may "
            f"set `{name}` or return another class"
        )
    where = owner.ix.scope_at(cls)
    for keyword in cls.keywords:
        if keyword.arg == "metaclass" and owner.ix.qualname(keyword.value, where) not in _KNOWN_METACLASSES:
            return (
                f"is made by the metaclass `{short(keyword.value)}` (line {keyword.value.lineno}), which may decide "
                f"what calling it gives or set `{name}`"
            )
    inner = owner.ix.own_scope(cls)
    hooks = inner.bindings.get("__init_subclass__") if inner is not None and as_base else None
    if hooks:
        return (
            f"defines `__init_subclass__` (line {getattr(hooks[0].node, 'lineno', cls.lineno)}), which runs for its "
            f"subclasses and may set their `{name}`"
        )
    written = _member_writer(owner, name)
    if written is not None:
        return f"may have `{name}` set from outside its body: {written}"
    # `self.__class__ = Other` makes an instance another class's, whose members then answer (a lead's probe: the
    # walk read `Layer.__call__` and its shard_map while `Odd`'s ran, and the strip of the one read was SAFE)
    swapped = _member_writer(owner, "__class__")
    if swapped is not None:
        return f"may have its instances made another class's: {swapped}"
    return None


def _member_writer(owner: ModuleModel, attr: str) -> str | None:
    """Where a store of `attr` from outside a class body may be (`writes.class_attribute_write`), in words
    ("<path> line N <what it does>"): first in the text of `owner`'s module, then in any module of the project
    (`ProjectLink.class_member_writer`); None when none is seen."""
    own = class_attribute_write(owner.ix.source, attr)
    if own is not None:
        line = owner.ix.source.count("\n", 0, own[0]) + 1
        path = owner.project.path if owner.project is not None else owner.ix.path
        return f"{relpath(path) if path else 'its module'} line {line} {own[1]}"
    return owner.project.class_member_writer(attr) if owner.project is not None else None


def is_super(expr: ast.AST, ix, scope: Scope) -> bool:
    """Whether `expr` is `super()` with no arguments, `super` being the builtin (no statement binds it)."""
    return (
        isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "super"
        and not expr.args and not expr.keywords and not ix.lookup("super", scope)
    )


def super_member(owner: ModuleModel, scope: Scope, name: str):
    """What `super().name` read in `scope` (a method of a class of module `owner`) finds: the lookup of `name`
    on the one base of that class (`type_member` of the base), as `type_member` gives it. Followed only in a
    single-inheritance class, where the base is the next class of the MRO; a `NotFollowed` for several bases
    (which class follows in the MRO of the instance's type is not read) or `super()` not read directly in a
    method's body (a nested function, a lambda); None when the base defines nothing (`object`)."""
    method = isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef))
    cls = owner.ix.parent.get(id(scope.node)) if method else None
    if not isinstance(cls, ast.ClassDef):
        return NotFollowed("`super()` is not read directly in a method's body", False)
    if len(cls.bases) != 1:
        return NotFollowed(
            f"`{cls.name}` has {len(cls.bases)} bases, and which class follows it in the MRO is not followed", False
        )
    return _through_base(owner, cls, cls.bases[0], name, Follow(BASES))


# The descriptors a class body may bind a special method to (`__call__ = staticmethod(f)`), by qualified name
_DESCRIPTOR_MAKERS = frozenset({
    "staticmethod", "classmethod", "property", "functools.partialmethod", "functools.cached_property",
    "functools.singledispatchmethod",
})


def _descriptor_maker(owner: ModuleModel, func: ast.AST, where: Scope) -> bool:
    """Whether `func` (the callee of a value a class body assigns) is one of `_DESCRIPTOR_MAKERS`: a builtin
    name no statement binds, or a library name by its qualified name."""
    if isinstance(func, ast.Name) and not owner.ix.lookup(func.id, where):
        return func.id in _DESCRIPTOR_MAKERS
    return isinstance(func, ast.Attribute) and owner.ix.qualname(func, where) in _DESCRIPTOR_MAKERS


def _through_base(owner: ModuleModel, cls: ast.ClassDef, base: ast.expr, name: str, follow: Follow):
    """`type_member` of `name` through one base expression of `cls` (None: the base defines nothing)."""
    named = base.value if isinstance(base, ast.Subscript) else base  # `Base[T]`, `Generic[T]`
    found = _class_of_expr(owner, named, owner.ix.scope_at(cls))
    if isinstance(found, tuple):
        return type_member(found[0], found[1], name, follow.deeper(), as_base=True)
    if found == "empty":
        return None
    if found == "library":
        return NotFollowed(
            f"`{cls.name}` does not define `{name}`; its base `{short(base)}` is a library's class", True
        )
    return NotFollowed(f"`{cls.name}` does not define `{name}`; its base `{short(base)}` {found}", False)


def _class_of_expr(owner: ModuleModel, expr: ast.AST, where: Scope):
    """The class of the project `expr` (read in `where` of module `owner`) names, as (its module's model, the
    class); else "empty" (a builtin other than `type`, or a library base of `_EMPTY_LIBRARY_BASES`), "library"
    (another library's name), or why the project's name is not resolved, in words."""
    if isinstance(expr, ast.Name):
        bound = owner.ix.single_binding(expr.id, where)
        if bound is not None and bound.kind is BindingKind.CLASS:
            return owner, bound.node
        if not owner.ix.lookup(expr.id, where):
            if builtin_name(expr.id):
                return "empty" if expr.id != "type" else "library"
            star = LostPlaces(owner).star_source(expr.id)
            return f"is not bound by a statement of its module ({star})" if star else "library"
    if not isinstance(expr, (ast.Name, ast.Attribute)):
        return "is computed (not a name the analysis resolves)"
    qname = owner.ix.qualname(expr, where)
    if qname in _EMPTY_LIBRARY_BASES:
        return "empty"
    if qname is None:
        return "is not a class the analysis resolves"
    if not LostPlaces(owner).follows(qname):
        return "library"
    far = owner.project.binding(qname)  # type: ignore[union-attr]
    if far is not None and far[1].kind is BindingKind.CLASS:
        return far[0], far[1].node
    return f"(`{qname}`) is not a class the analysis resolves" + (
        f": {owner.project.lost(qname)}" if far is None and owner.project.lost(qname) else ""  # type: ignore[union-attr]
    )


_DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "flax.struct.dataclass", "chex.dataclass"})


def _generates_init(owner: ModuleModel, cls: ast.ClassDef) -> bool:
    """Whether a dataclass decorator of `cls` writes an `__init__` into it (not given `init=False`)."""
    where = owner.ix.scope_at(cls)
    for deco in cls.decorator_list:
        func = deco.func if isinstance(deco, ast.Call) else deco
        if owner.ix.qualname(func, where) not in _DATACLASS_DECORATORS:
            continue
        given = {k.arg: k.value for k in deco.keywords} if isinstance(deco, ast.Call) else {}
        off = given.get("init")
        return not (isinstance(off, ast.Constant) and off.value is False)
    return False


def class_of_expr(owner: ModuleModel, expr: ast.AST, where: Scope):
    """The class of the project the base expression `expr` (read in `where` of module `owner`) names, as (its
    module's model, the class), else a word or reason (`_class_of_expr`)."""
    return _class_of_expr(owner, expr.value if isinstance(expr, ast.Subscript) else expr, where)


def _direct_bases(owner: ModuleModel, cls: ast.ClassDef) -> list[ast.AST]:
    """The class nodes the bases of `cls` name directly (the project's, resolved as `_class_of_expr` does)."""
    out = []
    for base in cls.bases:
        named = base.value if isinstance(base, ast.Subscript) else base
        found = _class_of_expr(owner, named, owner.ix.scope_at(cls))
        if isinstance(found, tuple):
            out.append(found[1])
    return out




def _inherited(owner: ModuleModel, cls: ast.ClassDef, name: str, depth: int = 0):
    """(the model of the module defining it, the member) of `name` found through the first base of `cls` that
    is a class of another module of the project (`ClassMembers.outside_base`), or (owner, None). An attribute
    `name` assigned in that module leaves it unresolved, as in `Instances.method_of`."""
    base = owner.members.outside_base(cls)
    project = owner.project
    if depth > 4 or not base or project is None or not project.follows(base):
        return owner, None
    found = project.binding(base)
    if found is None or found[1].kind is not BindingKind.CLASS:
        return owner, None
    far, far_cls = found[0], found[1].node
    if attribute_assigned(far.ix.source, name):
        return owner, None
    member = far.members.member(far_cls, name)
    if member is None:
        return _inherited(far, far_cls, name, depth + 1)
    return far, member


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


def _bound_parameters(func: ast.AST, through_instance: bool) -> int:
    """How many leading parameters of method `func` a read binds: a `staticmethod` none, a `classmethod` its
    `cls` (read off the class or an instance), any other method its `self` when read off an instance (read
    off the class it is a plain function)."""
    names = _decorator_names(func)
    if "staticmethod" in names:
        return 0
    if "classmethod" in names:
        return 1
    return 1 if through_instance else 0


def _decorator_names(func: ast.AST | None) -> set[str]:
    """The decorators of `func` written as plain names (`staticmethod`, `classmethod`)."""
    return {d.id for d in getattr(func, "decorator_list", ()) if isinstance(d, ast.Name)}


def is_self_param(binding) -> bool:
    """Whether a parameter is the first of a method (`self`, `cls`): calling it is the object's `__call__`."""
    return binding.node.arg in ("self", "cls")
