"""Class members: what `self.name` means inside a method, and the class attribute a constant reads.

Two followers of the analysis read class bodies:
- the call walk (`reach.Reacher`) follows `self.name(...)` to the method `name` of the enclosing class (or of a
  base class of this module), else to the one value assigned to `self.name` in its methods (`__init__`, flax's
  `setup`) or to `name` in its body (a dataclass field's default) — `ClassMembers.self_member`;
- the evaluation of values (`values.Evaluator.follow`) reads `Axes.BATCH` (a class attribute) and `cfg.axis`
  with `cfg = Config(...)` (the keyword given, else the class body's default) as constants, for a class of this
  module or of another module of the project — `class_attribute`.

A member defined more than once, a base class that is not a plain name of this module, and an attribute
assigned anywhere in the module stay unresolved: nothing here guesses which binding wins at run time.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from spmdfix.analysis.bindings import BindingKind, BoundScope, Scope
from spmdfix.analysis.calls import bind_arguments
from spmdfix.analysis.follow import BASES, MEMBER, Follow
from spmdfix.analysis.scopes import ModuleIndex
from spmdfix.analysis.writes import attribute_assigns, class_attribute_write, init_call, other_spelling
from spmdfix.paths import relpath

if TYPE_CHECKING:
    from spmdfix.analysis.index import ProjectLink

Member = tuple[ast.AST, Scope]  # a class member's definition or value, and the scope it is evaluated in
# values `values.Evaluator` never reads as a constant: whether they may be written elsewhere is not asked
_NEVER_READ = (ast.IfExp, ast.BoolOp, ast.Compare, ast.JoinedStr, ast.Lambda)


class Evaluating(Protocol):
    """What reading a class attribute needs of a module's evaluator (`values.Evaluator`, which calls
    `class_attribute` and is what it gives back): the module's scopes and its view of the project."""

    ix: ModuleIndex
    project: ProjectLink | None


class ClassMembers:
    """The members of the classes of one module (`ModuleIndex`), indexed per class on first use. Pure.

    elsewhere: whether another module of the project may reach a module-level class of this one by its name
    (`index.ProjectLink.named_elsewhere`; None: a module alone): its constructions there may give a field
    another value than its default. redefined: whether a subclass in another module of the project may give a
    module-level class of this one another member of a name (`index.ProjectLink.redefined_elsewhere`; None: a
    module alone, or the module checked). constructions: the calls of a module-level class of this one in the
    other modules of the project, None when some read of its name there is no call
    (`index.ProjectLink.constructions_elsewhere`; None: a module alone), which a field's default is read from.
    written: why a module importing this one may write an attribute of a name on some
    object, in any spelling (`index.ProjectLink.attribute_writer`; None: a module alone): an instance of a
    module-level class of this one may be handed to it (`setattr(Layer, 'AXIS', ...)`, `vars(LAYER)[...]`).
    anywhere: why any other module of the project may store an attribute of a name on an object it is handed,
    importing this one or not (`index.ProjectLink.project_writer`; None: a module alone)."""

    def __init__(
        self,
        index: ModuleIndex,
        elsewhere: Callable[[str], bool] | None = None,
        redefined: Callable[[str, str], bool] | None = None,
        constructions: Callable[[str], list | None] | None = None,
        written: Callable[[str], str | None] | None = None,
        anywhere: Callable[[str], str | None] | None = None,
    ) -> None:
        self.ix = index
        self.anywhere = anywhere
        self.elsewhere = elsewhere
        self.redefined = redefined
        self.constructions = constructions
        self.written = written
        self._members: dict[int, tuple[dict[str, Member], dict[str, list[Member]]]] = {}  # by class node
        self._by_class: dict[int, list[tuple[str, ast.AST]]] | None = None  # `_self_assigns`

    def self_value(self, expr: ast.Attribute, scope: Scope) -> tuple[ast.AST, Scope] | None:
        """`self.NAME` (or `cls.NAME`) read inside a method: the one value the class gives the name (a class
        attribute, a dataclass field's default, the one `self.NAME = ...` of its methods, such as an
        `__init__` parameter, whose value every construction gives: `ModuleIndex.argument_for`), and the
        scope it is evaluated in (`values.Evaluator` reads it). None when the name is a method, is assigned more than once, or a subclass of this module
        defines it again (which class `self` is then is not known)."""
        found = self.self_member(expr, scope)
        if found is None or found[2] or isinstance(found[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        value, inner, _ = found
        if isinstance(value, ast.Call) and (self.ix.qualname(value.func, inner) or "").endswith("field"):
            return None  # dataclasses.field(default=...): not read
        cls = self.enclosing_class(expr, scope)
        if cls is None or self._assigned_elsewhere(cls, expr.attr):
            return None
        if self.is_field_default(value) and not self._field_never_given(cls, expr.attr):
            return None  # a field's default (a dataclass, a flax Module): a construction may give another value
        # (asked last, and not of a value the evaluator never reads: it may build the project's import graph)
        if not isinstance(value, _NEVER_READ) and self.written_in_other_spelling(cls, expr.attr):
            return None
        return value, inner

    def _assigned_elsewhere(self, cls: ast.ClassDef, name: str) -> bool:
        """Whether the module assigns `.name` anywhere but in the `self.name = ...` statements of `cls` (and its
        bases) that `members` read: `layer.name = 'y'`, an augmented assignment, `obj.name = ...` of another."""
        written = attribute_writes(self.ix.source, name)
        own = 0
        for node in self.ix.attribute_assigns:
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr == name and isinstance(target.value, ast.Name):
                    if target.value.id == "self":
                        own += 1
        return written != own

    def written_in_other_spelling(self, cls: ast.ClassDef, name: str) -> str | None:
        """Why `.name` of `cls` or of its instances may be written other than by the assignments `members`
        reads, in words completing "... may be written: ...": a spelling of this module (`writes.other_spelling`:
        `setattr`, `self.__dict__[...]`, `vars(...)`, `mock.patch`), a class decorator spmdfix does not know
        (`unknown_decorator`), for a module-level class a module importing this one writing `.name` in any
        spelling (`written`), or any other module storing `.name` on an object it is handed (`anywhere`); None
        else."""
        spelled = other_spelling(self.ix.source, name)
        if spelled is not None:
            return f"this module {spelled}"
        decorated = unknown_decorator(self.ix, cls)
        if decorated is not None:
            return f"class `{cls.name}` is {_decorated_words(decorated, name)}"
        if self.written is not None and self.ix.scope_at(cls) is self.ix.module_scope:
            told = self.written(name)
            if told is not None:
                return told
        # a module handed an instance (`def tweak(layer): layer.AXIS = ...`), importing this one or not
        return self.anywhere(name) if self.anywhere is not None else None

    def is_field_default(self, value: ast.AST) -> bool:
        """Whether `value` is the default of an annotated name in a class body (`AXIS: str = 'x'`): a field of a
        dataclass or a flax Module, which a construction may set."""
        for scope in self.ix.scope_by_node.values():
            if scope.is_class:
                if any(isinstance(st, ast.AnnAssign) and st.value is value for st in scope.node.body):  # type: ignore[attr-defined]
                    return True
        return False

    def _field_never_given(self, cls: ast.ClassDef, name: str) -> bool:
        """Whether every construction of `cls` leaves its field `name` at its default: the class's name is
        written in this module only by its definition and its constructions by name (no subclass, no other
        reference); a module-level class that this module never constructs, or that other modules may reach
        (`elsewhere`), counts those modules' constructions too (`constructions`: every read of its name there a
        call); at least one construction in all, each without positional arguments, `**kwargs` or the keyword
        `name`."""
        calls = [c for c in self.ix.calls if isinstance(c.func, ast.Name) and c.func.id == cls.name]
        if self.ix.word_count(cls.name) != len(calls) + 1:
            return False
        for call in calls:
            bound = self.ix.single_binding(cls.name, self.ix.scope_at(call))
            if bound is None or bound.node is not cls:
                return False
        if self.ix.scope_at(cls) is self.ix.module_scope and (not calls or self._named_elsewhere(cls.name)):
            # built by other modules of the project too (or only): their constructions, read where they are
            far = self.constructions(cls.name) if self.constructions is not None else None
            if far is None:
                return False
            calls = calls + [call for _, call in far]
        if not calls:
            return False
        fields = init_fields(self.ix, cls)
        return not any(_may_give(call, name, fields) for call in calls)

    def field_given(self, cls: ast.ClassDef, name: str) -> str | None:
        """Why the field `name` of `cls` may not hold its default (`_field_never_given` is False), in words
        completing "the default of `name` is not read: ...": a construction giving it (`Shift(axis=...)`) or
        positional arguments not mapped to fields (`init_fields`); None when no construction of this module
        says it (the class's name read otherwise, or constructions in other modules)."""
        calls = [c for c in self.ix.calls if isinstance(c.func, ast.Name) and c.func.id == cls.name]
        fields = init_fields(self.ix, cls)
        for call in calls:
            if not _may_give(call, name, fields):
                continue
            text = ast.unparse(call)
            shown = f"`{text if len(text) <= 60 else text[:57] + '...'}` (line {call.lineno})"
            if any(k.arg == name for k in call.keywords):
                return f"the construction {shown} gives `{name}`"
            if fields is not None and name in fields and any(not isinstance(a, ast.Starred) for a in call.args):
                return f"the construction {shown} gives `{name}` by position"
            if fields is None:
                return (
                    f"the construction {shown} passes positional arguments, and which fields they set is not known "
                    f"(`{cls.name}` is not a plain dataclass whose `__init__` takes its fields in order)"
                )
            return f"the construction {shown} passes `*` or `**` arguments, which may give `{name}`"
        return None

    def _named_elsewhere(self, name: str) -> bool:
        """Whether another module may reach the module-level `name` (`elsewhere`); False for the module checked,
        whose own paths reach its instances through its own constructions (those are read; another module's
        are read only when it has none: `Block(axis='data')` in build.py is not layers.py's `Block()`)."""
        return self.elsewhere is not None and self.elsewhere(name)

    def self_member(self, expr: ast.Attribute, scope: Scope) -> tuple[ast.AST, Scope, bool] | None:
        """What `self.name` (or `cls.name`) means inside a method: the method `name` of the enclosing class
        or of a base class of this module, else the one value assigned to `self.name` in its methods
        (`__init__`, flax's `setup`) or to `name` in its body (a dataclass field's default). Returns (the
        `def` or the value, the scope it is evaluated in, whether a subclass of this module redefines the
        name), or None."""
        owner = expr.value
        if not isinstance(owner, ast.Name):
            return None
        binding = self.ix.single_binding(owner.id, scope)
        if binding is None or binding.kind is not BindingKind.PARAM:
            return None
        func = self.ix.parent.get(id(binding.node))
        cls = self.ix.parent.get(id(func))
        if not isinstance(cls, ast.ClassDef) or not func.args.args or func.args.args[0] is not binding.node:
            return None
        found = self.member(cls, expr.attr)
        if found is None:
            return None
        return (*found, self.overridden(cls, expr.attr))

    def member(self, cls: ast.ClassDef, name: str, follow: Follow | None = None) -> Member | None:
        """The member `name` of `cls`: its first method of that name, else the one value assigned to it
        (`members_of`), else the member of its first base class of this module that has one; None when the
        name is assigned more than once or found nowhere."""
        follow = follow or Follow(MEMBER)
        if follow.spent:
            return None
        methods, values = self.members_of(cls)
        if name in methods:
            return methods[name]
        found = values.get(name, ())
        if len(found) == 1:
            return found[0]
        if found:
            return None
        for base in cls.bases:
            if isinstance(base, ast.Name):
                bound = self.ix.single_binding(base.id, self.ix.scope_at(cls))
                if bound is not None and bound.kind is BindingKind.CLASS:
                    member = self.member(bound.node, name, follow.deeper())
                    if member is not None:
                        return member
        return None

    def members_of(self, cls: ast.ClassDef) -> tuple[dict[str, Member], dict[str, list[Member]]]:
        """(the first method of each name, every value assigned to each name) of a class body: `self.name =`
        in its methods (nested code included) and `name =` / `name: T =` in the body."""
        cached = self._members.get(id(cls))
        if cached is not None:
            return cached
        class_scope = self.ix.own_scope(cls)
        methods: dict[str, Member] = {}
        values: dict[str, list[Member]] = {}
        for stmt in cls.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                methods.setdefault(stmt.name, (stmt, class_scope))  # type: ignore[arg-type]
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None and isinstance(stmt.target, ast.Name):
                values.setdefault(stmt.target.id, []).append((stmt.value, class_scope))  # type: ignore[arg-type]
            elif isinstance(stmt, ast.Assign):
                for target in {t.id for t in stmt.targets if isinstance(t, ast.Name)}:
                    values.setdefault(target, []).append((stmt.value, class_scope))  # type: ignore[arg-type]
        for attr, value in self._self_assigns().get(id(cls), ()):
            values.setdefault(attr, []).append((value, self.ix.scope_at(value)))
        self._members[id(cls)] = (methods, values)
        return methods, values

    def _self_assigns(self) -> dict[int, list[tuple[str, ast.AST]]]:
        """By class node: (name, value) of each `self.name = value` inside a method of the class, nested code
        included (one entry per assignment and name). From the assignments the module index collected, not
        by a walk of each class: a test class of thousands of lines was walked whole for every `self.x`."""
        if self._by_class is not None:
            return self._by_class
        self._by_class = {}
        for node in self.ix.attribute_assigns:
            names = {t.attr for t in node.targets if isinstance(t, ast.Attribute) and _is_self_attr(t, t.attr)}
            if not names:
                continue
            for anc in self.ix.ancestors(node):
                cls = self.ix.parent.get(id(anc))
                if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)) and isinstance(cls, ast.ClassDef):
                    # (a def's parent is a class only when the def is a statement of the class's body)
                    self._by_class.setdefault(id(cls), []).extend((name, node.value) for name in sorted(names))
        return self._by_class

    def overridden(self, cls: ast.ClassDef, name: str) -> bool:
        """Whether a class of this module that names `cls` among its bases defines `name` again; in a module the
        analysis follows a name into, also a subclass of another module (`redefined`: the instance reached may
        be one, `ModelBlock().apply` with `apply` inherited)."""
        for node in self.ix.scope_by_node.values():
            other = node.node
            if isinstance(other, ast.ClassDef) and other is not cls:
                if any(isinstance(b, ast.Name) and b.id == cls.name for b in other.bases) and name in node.bindings:
                    return True
        if self.redefined is not None and self.ix.scope_at(cls) is self.ix.module_scope:
            return self.redefined(cls.name, name)
        return False

    def enclosing_class(self, attr: ast.Attribute, scope: Scope) -> ast.ClassDef | None:
        """The class whose method binds `self` (or `cls`) in `self.name`, or None."""
        if not isinstance(attr.value, ast.Name):
            return None
        binding = self.ix.single_binding(attr.value.id, scope)
        if binding is None or binding.kind is not BindingKind.PARAM:
            return None
        func = self.ix.parent.get(id(binding.node))
        cls = self.ix.parent.get(id(func))
        return cls if isinstance(cls, ast.ClassDef) else None

    def outside_base(self, cls: ast.ClassDef, follow: Follow | None = None) -> str | None:
        """The qualified name of the first base of `cls` (or of its bases in this module) that is not a class
        of this module ("" when it has no name: `Base[T]`, a call), or None when every base is local."""
        follow = follow or Follow(BASES)
        if follow.spent:
            return ""
        for base in cls.bases:
            if isinstance(base, ast.Name):
                bound = self.ix.single_binding(base.id, self.ix.scope_at(cls))
                if bound is not None and bound.kind is BindingKind.CLASS:
                    found = self.outside_base(bound.node, follow.deeper())
                    if found is not None:
                        return found
                    continue
            if isinstance(base, (ast.Name, ast.Attribute)):
                return self.ix.qualname(base, self.ix.scope_at(cls)) or ""
            return ""
        return None


def method(cls: ast.ClassDef, name: str) -> ast.AST | None:
    """The first method `name` a class body defines, or None."""
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
            return stmt
    return None


# --- class attributes as constants (values.Evaluator.follow) ------------------------------------------------
def class_attribute(ev: Evaluating, expr: ast.Attribute, scope: Scope) -> tuple[Evaluating, ast.AST, Scope] | None:
    """`Axes.BATCH` (a class attribute) or `cfg.batch_axis` with `cfg = Config(...)` (the keyword given,
    else the class body's default, as a dataclass has it), `cfg` built in this module or imported from another
    module of the project that builds it at module level (`from pkg.config import CFG`, `config.CFG`): the
    value, with the evaluator of the module it is written in and its scope, for a class of `ev`'s module or of
    another module of the project."""
    found = _attribute_read(ev, expr, scope)
    return found if isinstance(found, tuple) else None


def field_not_read(ev: Evaluating, expr: ast.Attribute, scope: Scope) -> str | None:
    """Why `cfg.axis`, a field of an instance of a class of the project (`cfg = Config()`, here or imported
    from the module building it), is not read as `class_attribute` reads it, in words (an SPMD910 record's
    reason: `unknown_values`); None when `expr` is not such a field or is read."""
    found = _attribute_read(ev, expr, scope)
    return found if isinstance(found, str) else None


def _attribute_read(ev: Evaluating, expr: ast.Attribute, scope: Scope) -> tuple[Evaluating, ast.AST, Scope] | str | None:
    """`class_attribute`'s value; for a field of an instance that is not read, why (`field_not_read`)."""
    assigned = re.compile(rf"\.\s*{re.escape(expr.attr)}\s*(?:[-+*/%@&|^]|<<|>>|//|\*\*)?=(?!=)")
    attr = expr.attr
    base = expr.value
    call = None
    home = ev  # the module whose code builds the instance (`cfg = Config(...)`)
    if isinstance(base, ast.Name):
        binding = ev.ix.single_binding(base.id, scope)
        if binding is not None and binding.kind is BindingKind.ASSIGN and isinstance(binding.node, ast.Call):
            call, scope = binding.node, binding.scope
            base = call.func
    link = None  # the view of the project of the module building an imported instance
    qname = None  # the name it is imported by, which other modules may rebind
    if call is None:
        built = _instance_imported(ev, base, scope)
        if built is not None:
            home, call, scope, link, qname = built
            base = call.func
    found = class_named(home, base, scope)
    if found is None:
        return None
    owner, cls = found
    instance = f"`{ast.unparse(expr.value)}` is `{cls.name}(...)`" if call is not None else None
    # (`self.axis = 'x'` in the class's own `__init__`: the one write of `.axis`, read for the construction)
    init = _init_assigning(cls, attr) if call is not None else None
    if call is not None:
        # (`cfg.__init__('y')`, `Config.__init__ = wrap(...)`, `self.__class__ = Sub`: the instance's attributes
        # are then another call's, or another class's: breaker18 i01, i02, i11, i12, i14)
        rerun = _rerun_or_retyped(ev, home, owner)
        if rerun is not None:
            return f"{instance}, and {rerun}"
    for module in dict.fromkeys((ev, home, owner)):
        if assigned.search(module.ix.source):
            if init is not None and module is owner and attribute_writes(owner.ix.source, attr) == 1:
                continue  # that one write is `__init__`'s
            # the attribute is assigned somewhere: not a constant
            return f"{instance}, and `.{attr}` is assigned in {_module_words(module, ev)}" if instance else None
    told = _computed_member(cls, attr)
    if told is not None:
        return f"{instance or f'`{ast.unparse(expr.value)}` is class `{cls.name}`'}, whose {told}"
    decorated = unknown_decorator(owner.ix, cls)
    if decorated is not None:
        # (a decorator may set the attribute on the class: writes10 w15, `setattr(cls, k, v)` in utils.py)
        what = instance or f"`{ast.unparse(expr.value)}` is class `{cls.name}`"
        return f"{what} of {_module_words(owner, ev)}, which is {_decorated_words(decorated, attr)}"
    if call is None:
        # a class attribute read through the class (`Axes.DATA`): written in another spelling here, or by a
        # module importing the class's module (`Axes.DATA = ...`, `setattr(Axes, ...)`, `mock.patch.object`)
        what = f"`{ast.unparse(expr.value)}` is class `{cls.name}`"
        for module in dict.fromkeys((ev, owner)):
            spelled = other_spelling(module.ix.source, attr)
            if spelled is not None:
                return f"{what}, and {_module_words(module, ev)} {spelled}"
        link = owner.project
        writer = link.known_attribute_writer(attr) if link is not None and owner is not ev else None
        if writer is None:
            writer = _written_anywhere(ev, attr, (ev, owner))
        if writer is not None:
            return f"{what} of {_module_words(owner, ev)}, and {writer}"
        return _class_body_value(owner, cls, attr)
    # (asked only now, for an instance of a class of the project: it reads the texts of the modules importing
    # the module building it)
    if home is ev:
        # built here: at module level, a module importing this one may write it (`model.CFG.axis = ...`)
        link = ev.project if ev.project is not None and scope.parent is None else None
        writer = link.known_attribute_writer(attr) if link is not None else None
    else:
        writer = link.attribute_writer(attr) if link is not None else "its module is not known"
    if writer is None:
        # a module handed the instance, importing its module or not (`def tweak(cfg): cfg.axis = ...`)
        writer = _written_anywhere(ev, attr, (ev, home, owner))
    if writer is not None:
        return f"{instance} of {_module_words(home, ev)}, and {writer}"
    rebound = ev.project.name_writer(qname) if qname is not None and ev.project is not None else None
    if rebound is not None:
        # the name itself rebound (`config.CFG = dataclasses.replace(config.CFG, ...)`: writes10)
        return f"{instance} of {_module_words(home, ev)}, but `{qname}` may be rebound: {rebound}"
    for module in dict.fromkeys((ev, home, owner)):
        # `object.__setattr__(self, 'axis', ...)` (a frozen dataclass's `__post_init__`), `setattr(cfg, ...)`,
        # `vars(CFG)['axis'] = ...`, `self.__dict__[...]`, `mock.patch.object(CFG, ...)` (`writes`)
        spelled = other_spelling(module.ix.source, attr)
        if spelled is not None:
            return f"{instance}, and {_module_words(module, ev)} {spelled}"
    if init is not None:
        return _init_value(home, call, scope, owner, cls, *init)
    fields = init_fields(owner.ix, cls) if call.args else None
    if call.args and (fields is None or any(isinstance(a, ast.Starred) for a in call.args)):
        return f"{instance}, built with positional arguments, which are not read"  # their order is the class's
    if call.args and attr in fields and fields.index(attr) < len(call.args):
        return home, call.args[fields.index(attr)], scope  # a plain dataclass: the fields in order
    if call.args and attr not in fields:
        return f"{instance}, built with positional arguments, and `{attr}` is none of its fields"
    for kw in call.keywords:
        if kw.arg is None:
            return f"{instance}, built with `**` arguments, which are not read"
        if kw.arg == attr:
            return home, kw.value, scope
    value = _class_body_value(owner, cls, attr)
    if value is None:
        return f"{instance}, whose class does not give `{attr}` one value spmdfix reads (a `field(...)`, none, several)"
    return value


# Methods through which a class may store or give an attribute other than its `__init__`'s plain assignment.
_STORING = frozenset({"__setattr__", "__getattr__", "__getattribute__", "__new__", "__post_init__", "__init_subclass__"})


def _init_assigning(cls: ast.ClassDef, attr: str) -> tuple[ast.FunctionDef, ast.AST] | None:
    """(`__init__`, the value) when the class's own `__init__` gives `.attr` its value by one plain
    `self.attr = VALUE` among its top-level statements, before any `return`, with VALUE not reading the
    instance, in a class with no base, no keyword, no decorator and no method that may store or give
    attributes otherwise (`_STORING`); else None. (Whether anything else writes `.attr` is the caller's:
    `_attribute_read`.)"""
    if cls.bases or cls.keywords or cls.decorator_list:
        return None
    inits = [s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"]
    if len(inits) != 1 or not isinstance(inits[0], ast.FunctionDef) or inits[0].decorator_list:
        return None
    if any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name in _STORING for s in cls.body):
        return None
    init = inits[0]
    bound = _class_body_names(cls)
    if attr in bound or bound.count("__init__") > 1:
        # (`axis = property(...)` or a descriptor answers the read instead of the instance's dict; `__init__ =
        # wrap(__init__)` runs another function: breaker18 i07, i08, i13)
        return None
    params = [*init.args.posonlyargs, *init.args.args]
    if not params:
        return None
    me = params[0].arg
    for stmt in init.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Attribute) and target.attr == attr and isinstance(target.value, ast.Name) and target.value.id == me:
                if any(isinstance(n, ast.Name) and n.id == me for n in ast.walk(stmt.value)):
                    return None  # (`self.axis = self.names[0]`: what the instance holds then is not read)
                return init, stmt.value
        if any(isinstance(n, ast.Return) for n in ast.walk(stmt)):
            return None  # a `return` before it may leave the attribute unset
    return None


def _rerun_or_retyped(ev: Evaluating, home: Evaluating, owner: Evaluating) -> str | None:
    """Why an instance built in the source may not hold what its construction gave it, in words naming the
    module and line: an `__init__` run again on an object (`writes.init_call`), a class's `__init__` replaced
    from outside its body or an object's `__class__` stored (`writes.class_attribute_write`), in the modules
    read (`ev`, `home`, `owner`) or any module of the project; None when none is seen."""
    for module in dict.fromkeys((ev, home, owner)):
        source = module.ix.source
        found = init_call(source)
        if found is None:
            for special in ("__init__", "__class__", *sorted(_STORING)):
                stored = class_attribute_write(source, special)
                if stored is not None:
                    found = (source.count("\n", 0, stored[0]) + 1, stored[1])
                    break
        if found is not None:
            return f"{_module_words(module, ev)} line {found[0]} {found[1]}"
    link = owner.project
    if link is None:
        return None
    if link.init_caller() is not None:
        return link.init_caller()
    return next(filter(None, map(link.class_member_writer, ("__init__", "__class__", *sorted(_STORING)))), None)


# What a function's call runs, set from outside its `def`: its defaults, its keyword-only defaults, its code.
_FUNCTION_PARTS = ("__defaults__", "__kwdefaults__", "__code__")


def function_rewritten(home: Evaluating, reading: Evaluating) -> str | None:
    """Why a function of `home`'s module (as `reading`'s record names it) may not run as its `def` is written, in words naming the module and
    line: a store of its `__defaults__`, `__kwdefaults__` or `__code__` (`pick.__defaults__ = (2,)`,
    `Config.__init__.__defaults__ = ('y',)`: breaker18 h24-h26, i26) in its module or any module of the project
    (`writes.class_attribute_write`); None when none is seen. Which function a store sets is not followed."""
    source = home.ix.source
    for part in _FUNCTION_PARTS:
        stored = class_attribute_write(source, part)
        if stored is not None:
            return f"{_module_words(home, reading)} line {source.count(chr(10), 0, stored[0]) + 1} {stored[1]}"
    link = home.project
    if link is None:
        return None
    return next(filter(None, map(link.class_member_writer, _FUNCTION_PARTS)), None)


def _class_body_names(cls: ast.ClassDef) -> list[str]:
    """Every name the class body's own statements bind, once for each binding (an assignment's or a loop's
    target, a `def`, a `class`, an import), not those of the functions and classes nested in it."""
    names: list[str] = []
    todo: list[ast.AST] = list(cls.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
            todo.extend(node.decorator_list)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.append(node.id)
        elif isinstance(node, ast.alias):
            names.append((node.asname or node.name).split(".")[0])
        todo.extend(ast.iter_child_nodes(node))
    return names


def _init_value(
    home: Evaluating, call: ast.Call, scope: Scope, owner: Evaluating, cls: ast.ClassDef, init: ast.FunctionDef, value: ast.AST
) -> tuple[Evaluating, ast.AST, Scope] | str:
    """The value `__init__` assigns, in a scope binding its parameters to the construction `call`'s arguments
    (`calls.bind_arguments`, the instance left out); why not, in words, when the call cannot be bound."""
    rewritten = function_rewritten(owner, home)
    if rewritten is not None:
        return f"`{cls.name}(...)` runs its `__init__` (line {init.lineno}), and {rewritten}"
    inner = owner.ix.own_scope(init)
    arguments = bind_arguments(home, call, scope, owner, init, method=True)  # type: ignore[arg-type]
    if inner is None or arguments is None:
        return f"`{cls.name}(...)` passes arguments spmdfix cannot bind to its `__init__` (line {init.lineno})"
    return owner, value, BoundScope(inner.node, inner, {}, arguments)  # type: ignore[arg-type]


def _written_anywhere(ev: Evaluating, attr: str, judged: tuple[Evaluating, ...]) -> str | None:
    """Why a module of the project other than the `judged` ones (whose own writes the caller read) may store
    `.attr` on the object read, handed to it by any module (`ProjectLink.project_writer`: writes10 w08, w09);
    None when none may, or without a project."""
    if ev.project is None:
        return None
    paths = frozenset(m.project.path if m.project is not None else m.ix.path for m in judged)
    return ev.project.project_writer(attr, paths - {""})


def _may_give(call: ast.Call, name: str, fields: list[str] | None) -> bool:
    """Whether the construction `call` may give the field `name` a value: by keyword (or `**`), or by a
    positional argument, which `fields` (`init_fields`, None when not known) maps to the fields in order."""
    if any(k.arg is None or k.arg == name for k in call.keywords):
        return True
    if not call.args:
        return False
    if fields is None or any(isinstance(a, ast.Starred) for a in call.args):
        return True
    return name not in fields or fields.index(name) < len(call.args)


# The dataclass makers whose `__init__` takes the class's fields, in the order its body declares them.
_DATACLASS_MAKERS = frozenset({"dataclasses.dataclass", "flax.struct.dataclass", "chex.dataclass"})


def init_fields(ix: ModuleIndex, cls: ast.ClassDef) -> list[str] | None:
    """The names `cls.__init__` takes positionally, in order, when `cls` is a dataclass whose fields all come
    from its own body: decorated by one of `_DATACLASS_MAKERS` (called without `kw_only`, `init` or
    `match_args`... only `frozen`, `eq`, `order`, `repr`, `unsafe_hash`, `slots` may be passed), no base
    class, no `__init__` of its own, and every field a plain annotated name (`axis: str = DATA`) whose
    default is not a `field(...)` call (which may set `init=False` or `kw_only=True`) nor marked `KW_ONLY` /
    `ClassVar`. None otherwise: which field a positional argument sets is then not known (newuser11 p3:
    `Shift(0.5)` was read as perhaps giving `axis`, an SPMD910 record)."""
    if cls.bases or cls.keywords or len(cls.decorator_list) != 1:
        return None
    deco = cls.decorator_list[0]
    target = deco.func if isinstance(deco, ast.Call) else deco
    scope = ix.scope_at(cls)
    if ix.qualname(target, scope) not in _DATACLASS_MAKERS:
        return None
    if isinstance(deco, ast.Call) and (
        deco.args or any(k.arg not in ("frozen", "eq", "order", "repr", "unsafe_hash", "slots") for k in deco.keywords)
    ):
        return None
    fields: list[str] = []
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == "__init__":
            return None
        if not isinstance(stmt, ast.AnnAssign):
            continue
        if not isinstance(stmt.target, ast.Name) or not stmt.simple:
            return None
        shown = ast.unparse(stmt.annotation)
        if "ClassVar" in shown or "KW_ONLY" in shown or "InitVar" in shown:
            return None
        if isinstance(stmt.value, ast.Call):
            return None  # `field(...)`, or any call that may be one
        fields.append(stmt.target.id)
    return fields


# Class decorators known not to set a class attribute or a field's default: the dataclass makers and
# registrations that return the class they are given with its body's values (`unknown_decorator`).
_KNOWN_DECORATORS = frozenset({
    "dataclasses.dataclass",
    "flax.struct.dataclass",
    "chex.dataclass",
    "functools.total_ordering",
    "typing.final",
    "typing.runtime_checkable",
    "typing_extensions.final",
    "jax.tree_util.register_pytree_node_class",
    "jax.tree_util.register_dataclass",
    "jax.tree_util.register_static",
})


def unknown_decorator(ix: ModuleIndex, cls: ast.ClassDef) -> ast.expr | None:
    """The first decorator of `cls` that is not one of `_KNOWN_DECORATORS` (by qualified name, a call of one
    included: `@dataclasses.dataclass(frozen=True)`), or None: a decorator may set any attribute of the class
    it is given (`setattr(cls, k, v)` for each override: writes10 w15), or return another class."""
    scope = ix.scope_at(cls)
    for decorator in cls.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        qname = ix.qualname(target, scope) if isinstance(target, (ast.Name, ast.Attribute)) else None
        if qname not in _KNOWN_DECORATORS:
            return decorator
    return None


def _decorated_words(decorator: ast.expr, attr: str) -> str:
    """"decorated by `d` (line N), ...": the words of a record naming a decorator `unknown_decorator` found."""
    shown = ast.unparse(decorator)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return f"decorated by `@{shown}` (line {decorator.lineno}), a decorator spmdfix does not know, which may set `{attr}`"


def _computed_member(cls: ast.ClassDef, attr: str) -> str | None:
    """Why reading `attr` of `cls` or of its instances may not give the value its body assigns, in words
    completing "... whose ...": the class defines a method of that name (a `@property` shadows a class
    attribute of the name assigned before it), or `__getattribute__` (every read goes through it); None."""
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if stmt.name == attr:
                return f"class defines `{attr}` as a method too (line {stmt.lineno}: a `@property`?)"
            if stmt.name == "__getattribute__":
                return f"class defines `__getattribute__` (line {stmt.lineno}), which every read goes through"
    return None


def _class_body_value(owner: Evaluating, cls: ast.ClassDef, attr: str) -> tuple[Evaluating, ast.AST, Scope] | None:
    """The one value a class body assigns to `attr` (a class attribute, a dataclass field's default), with the
    evaluator of its module and the class's scope; None when there is not one (or it is `field(...)`)."""
    values = [
        stmt.value
        for stmt in cls.body
        if isinstance(stmt, (ast.Assign, ast.AnnAssign))
        and stmt.value is not None
        and any(isinstance(t, ast.Name) and t.id == attr for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]))
    ]
    inner = owner.ix.own_scope(cls)
    if len(values) != 1 or inner is None:
        return None
    if isinstance(values[0], ast.Call) and (owner.ix.qualname(values[0].func, inner) or "").endswith("field"):
        return None  # dataclasses.field(default=...): not read
    return owner, values[0], inner


def _module_words(module: Evaluating, reading: Evaluating) -> str:
    """A module of the project as a reason names it: "this module" for the module `reading` the attribute
    (where the record sits), else its path."""
    if module is reading:
        return "this module"
    path = module.project.path if module.project is not None else module.ix.path
    return relpath(path) if path else "another module"


def _instance_imported(ev: Evaluating, expr: ast.AST, scope: Scope):
    """`CFG` in `CFG.axis`, imported from another module of the project (`from pkg.config import CFG`, or
    `config.CFG`) where it is a module-level name bound once to a call (`CFG = Config()`): (the evaluator of
    that module, the call, its scope, that module's view of the project, which `ProjectLink.attribute_writer`
    asks whether a module importing it may write the attribute on it, and the name's qualified name, which
    `ProjectLink.name_writer` asks whether a module may rebind it). None when `expr` is not such a name."""
    if isinstance(expr, ast.Name):
        binding = ev.ix.single_binding(expr.id, scope)
        qname = binding.qname if binding is not None and binding.kind is BindingKind.IMPORT else None
    elif isinstance(expr, ast.Attribute):
        qname = ev.ix.qualname(expr, scope)
    else:
        return None
    if ev.project is None or not ev.project.follows(qname):
        return None
    found = ev.project.binding(qname, whole=True)
    if found is None or found[1].kind is not BindingKind.ASSIGN or not isinstance(found[1].node, ast.Call):
        return None
    model, binding = found
    return model.ev, binding.node, binding.scope, getattr(model, "project", None), qname


def class_named(ev: Evaluating, expr: ast.AST, scope: Scope) -> tuple[Evaluating, ast.ClassDef] | None:
    """The class `expr` names in `ev`'s module, defined there or imported from another module of the project
    (with the evaluator of the module defining it)."""
    if isinstance(expr, ast.Name):
        binding = ev.ix.single_binding(expr.id, scope)
        if binding is not None and binding.kind is BindingKind.CLASS:
            return ev, binding.node  # type: ignore[return-value]
        qname = binding.qname if binding is not None and binding.kind is BindingKind.IMPORT else None
    elif isinstance(expr, ast.Attribute):
        qname = ev.ix.qualname(expr, scope)
    else:
        return None
    if ev.project is None or not ev.project.follows(qname):
        return None
    found = ev.project.binding(qname)
    if found is None or found[1].kind is not BindingKind.CLASS:
        return None
    return found[0].ev, found[1].node  # type: ignore[return-value]


def _is_self_attr(target: ast.AST, name: str) -> bool:
    return (
        isinstance(target, ast.Attribute)
        and target.attr == name
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    )


def attribute_writes(source: str, name: str) -> int:
    """How many times `.name = ...` (or an augmented assignment to `.name`) is written in the text: an object
    may then carry an attribute `name` of its own, which its class does not tell (`writes.attribute_assigns`)."""
    return attribute_assigns(source, name)
