"""Why a value the analysis needs could not be read, in words: the reason an SPMD910 record gives.

Issue 22's principle: every value the analysis needs on a reached path is resolved, or the record of where it
stopped names the expression, its line (the record's position) and why. The evaluator (`values.Evaluator`)
answers only "known" or "not known"; this module looks at the expression it gave up on, and at what binds it,
one step deep, and says which of the forms the evaluator does not follow it is: a name bound several times or
by a loop, a parameter, an import from outside the project, the result of a call, a class attribute assigned
from a call, in a loop, more than once, or on an instance. Pure: reads the module's index only.
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.analysis.bindings import Binding, BindingKind, Scope
from spmdfix.analysis.calls import argument, returns
from spmdfix.analysis.facts import UnreadValue
from spmdfix.analysis.kinds import UnreadKind
from spmdfix.analysis.members import class_attribute, field_not_read
from spmdfix.analysis.uses import short
from spmdfix.analysis.values import Evaluator, bound_for
from spmdfix.paths import relpath

_LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.comprehension)


def unread(ev: Evaluator, kind: UnreadKind, label: str, expr: ast.AST, scope: Scope) -> UnreadValue:
    """The record of a value of a reached shard_map that `ev` could not read: `label` names it in words
    ("`check_vma`", "the axis of `psum`"), `expr` is the expression as written (the record's position), and
    the reason is `why_unknown`'s. One builder for every kind of value (issue 22)."""
    return UnreadValue(kind, ev.span(expr), unread_message(ev, label, expr, scope))


def unread_message(ev: Evaluator, label: str, expr: ast.AST, scope: Scope) -> str:
    """"<label> (`expr`) is not known: <why>", the words of an SPMD910 record for a value spmdfix needs."""
    return f"{label} (`{short(expr)}`) is not known: {why_unknown(ev, expr, scope)}"


def why_unknown(ev: Evaluator, expr: ast.AST, scope: Scope, depth: int = 0) -> str:
    """Why `expr` (evaluated in `scope` of `ev`'s module) is not a value the evaluator reads, one clause
    (for an attribute of an attribute, the clause of the object it is read from, a few levels)."""
    if isinstance(expr, ast.Name):
        passed = _bound_argument(ev, expr, scope) if depth < 3 else None
        if passed is not None:
            # a parameter of a function read for one call (`values.BoundScope`): what that call passes
            owner, value, where = passed
            inner = why_unknown(owner, value, where, depth + 1)
            return f"`{expr.id}` is given `{short(value)}` by the call{_call_place(ev, owner, value)}, and {inner}"
        return _why_name(ev, expr, scope)
    if isinstance(expr, ast.Attribute):
        cls = ev.members.enclosing_class(expr, scope)
        if cls is not None:
            return _why_member(ev, cls, expr)
        told = field_not_read(ev, expr, scope)  # a field of an instance of a class of the project
        if told is not None:
            return told
        read = class_attribute(ev, expr, scope) if depth < 3 else None
        if read is not None:
            # read, to a value that is not what was asked (`t.vec`, set by `T.__init__` to a vmap factory)
            owner, value, where = read
            inner = why_unknown(owner, value, where, depth + 1)  # type: ignore[arg-type]
            return f"`{short(expr)}` is `{short(value)}`{_call_place(ev, owner, value)}, and {inner}"  # type: ignore[arg-type]
        told = _written_elsewhere(ev, expr.value, scope) or _written_elsewhere(ev, expr, scope)
        if told is not None:
            return told
        if isinstance(expr.value, (ast.Attribute, ast.Subscript, ast.Call)) and depth < 3:
            inner = why_unknown(ev, expr.value, scope, depth + 1)
            return f"`{short(expr)}` is read from `{short(expr.value)}`, and {inner}"
        told = _lost_module(ev, expr, ev.ix.qualname(expr, scope))
        if told is not None:
            return told
        return f"`{short(expr)}` is an attribute of a value spmdfix does not know"
    if isinstance(expr, ast.Subscript):
        return _written_elsewhere(ev, expr.value, scope) or _why_subscript(ev, expr)
    return _why_value(expr, ev, scope)


def _written_elsewhere(ev: Evaluator, expr: ast.AST, scope: Scope) -> str | None:
    """Why `expr`, a module-level name of another module of the project (`DATA` imported from it,
    `config.DATA`), is not read as the value its module binds: code of the project writes it in another
    spelling (`ProjectLink.name_writer`: `config.DATA = ...`, `vars(config)[...]`, `globals()`); None else."""
    if ev.project is None:
        return None
    if isinstance(expr, ast.Name):
        binding = ev.ix.single_binding(expr.id, scope)
        qname = binding.qname if binding is not None and binding.kind is BindingKind.IMPORT else None
    elif isinstance(expr, ast.Attribute):
        qname = ev.ix.qualname(expr, scope)
    else:
        return None
    if not ev.project.follows(qname):
        return None
    writer = ev.project.name_writer(qname)
    if writer is None:
        return None
    return f"`{short(expr)}` is `{qname}`, which may be written outside the statement binding it: {writer}"


def _lost_module(ev: Evaluator, expr: ast.AST, qname: str | None) -> str | None:
    """Why `expr`, spelling `qname` of a module of the project (`config.DATA`, `DATA` imported from it), is
    not read when the project index lost that module: it could not be read or parsed, or was past the limit
    of modules read (`ProjectLink.lost`); None else. (newuser10's trial: with a syntax error in config.py the
    record said "`config.DATA` is an attribute of a value spmdfix does not know", and config.py, holding no
    vmap, got no SPMD900 of its own: nothing said where to look.)"""
    if ev.project is None or not qname:
        return None
    lost = ev.project.lost(qname)
    if lost is None or not lost.startswith("module "):
        return None
    return f"`{short(expr)}` is `{qname}`, and {lost}"


def _bound_argument(ev: Evaluator, name: ast.Name, scope: Scope) -> tuple[Evaluator, ast.AST, Scope] | None:
    """What the call a function is read for passes for its parameter `name` (`values.bound_for`), or None."""
    binding = ev.ix.single_binding(name.id, scope)
    if binding is None or binding.kind is not BindingKind.PARAM:
        return None
    bound = bound_for(scope, binding.scope)
    return bound.arguments.get(name.id) if bound is not None else None


def _call_place(ev: Evaluator, owner: Evaluator, value: ast.AST) -> str:
    """` (line N)` of an argument, with the module's path when it is written in another module than `ev`'s."""
    path = owner.project.path if owner.project is not None else owner.ix.path
    if owner.ix is ev.ix or not path:
        return f" (line {_row(value)})"
    return f" ({relpath(path)} line {_row(value)})"


def _why_value(expr: ast.AST, ev: Evaluator | None = None, scope: Scope | None = None) -> str:
    """Why an expression that is not a name or an attribute is not read (with the evaluator of its module and
    its scope, a call is looked at: a mesh constructor, a project helper with several returns)."""
    if isinstance(expr, ast.Call):
        if ev is not None and scope is not None:
            told = _why_call(ev, expr, scope)
            if told is not None:
                return told
        return f"`{short(expr.func)}(...)` is a call spmdfix does not evaluate"
    if isinstance(expr, ast.Subscript):
        return f"`{short(expr)}` is a subscript spmdfix cannot read"
    if isinstance(expr, ast.IfExp):
        return f"`{short(expr)}` is a conditional expression, whose condition spmdfix does not decide"
    if isinstance(expr, ast.BoolOp):
        return f"`{short(expr)}` is an `and`/`or` expression, whose operands' truth spmdfix does not decide"
    if isinstance(expr, ast.JoinedStr):
        return f"`{short(expr)}` is an f-string spmdfix does not evaluate"
    return f"`{short(expr)}` is an expression spmdfix does not evaluate"


def _why_call(ev: Evaluator, call: ast.Call, scope: Scope) -> str | None:
    """Why a call the evaluator reads is not known, when it is one it reads: a mesh constructor (`Mesh`,
    `jax.make_mesh`, jax's `jtu.create_mesh`) whose axis names are not read, or a call of a project function with
    several returns (`meshes.several_returns`) that do not all give one value (a mesh: the same axis names)."""
    from spmdfix.analysis.meshes import several_returns  # (meshes reads values; this module explains them)

    qname = ev.ix.qualname(call.func, scope)
    if qname in jaxapi.MESH_NAMES or qname in jaxapi.MAKE_MESH_NAMES or qname in jaxapi.TEST_MESH_NAMES:
        names = argument(call, 1, "axis_names")
        if names is not None and ev.axis_names(names, scope) is None:
            return f"`{short(call.func)}(...)` builds a mesh whose axis names (`{short(names)}`) spmdfix does not read"
        return None
    found = several_returns(ev, call, scope)
    if found is None:
        return None
    _, _, owner, func, _ = found
    rows = ", ".join(str(r) for r in sorted(_row(r) for r in returns(func) or ())[:4])
    return (
        f"`{short(call.func)}(...)` calls `{func.name}` (line {_row(func)}{_where(ev, owner)}), whose "
        f"{len(returns(func) or ())} returns (lines {rows}) spmdfix does not read as one value"
    )


def _where(ev: Evaluator, owner: Evaluator) -> str:
    """`, in <path>` when `owner` is the evaluator of another module than `ev`'s, else ""."""
    if owner is ev:
        return ""
    path = owner.ix.path or ""
    return f" of {relpath(path)}" if path else " of another module"


def _why_name(ev: Evaluator, name: ast.Name, scope: Scope) -> str:
    """Why a name is not read: what binds it."""
    bindings = ev.ix.lookup(name.id, scope)
    if not bindings:
        return f"`{name.id}` is bound nowhere in its module (a builtin or a `*` import)"
    if len(bindings) > 1:
        rows = ", ".join(str(r) for r in sorted(_row(b.node) for b in bindings)[:4])
        return f"`{name.id}` is bound {len(bindings)} times (lines {rows}), so its value where it is read is not known"
    binding = bindings[0]
    if binding.kind is BindingKind.PARAM:
        return _why_param(ev, binding)
    if binding.kind is BindingKind.IMPORT:
        told = _written_elsewhere(ev, name, scope) or _lost_module(ev, name, binding.qname)
        if told is not None:
            return told
        return f"`{name.id}` is imported (`{binding.qname}`) from a module spmdfix does not follow or that does not define it"
    if binding.kind is BindingKind.OTHER:
        return f"`{name.id}` is bound by a loop, `with`, unpacking or `except` (line {_row(binding.node)})"
    if binding.kind is BindingKind.ASSIGN:
        written = ev.module_name_written(name.id) if binding.scope.parent is None else None
        if written is not None:
            return (
                f"`{name.id}` is assigned on line {_row(binding.node)}, and may be written other than by that "
                f"statement: {written}"
            )
        where = _why_value(binding.node, ev, binding.scope)
        return f"`{name.id}` is assigned on line {_row(binding.node)}, where {where}"
    return f"`{name.id}` is a {binding.kind.value}, not a value"


def _why_param(ev: Evaluator, param: Binding) -> str:
    """Why a parameter is not read (`ModuleIndex.argument_for` found no one value): which function it is
    of, and what its calls in this module pass (the only calls the evaluator reads)."""
    func = ev.ix.parent.get(id(param.node))
    if isinstance(func, ast.Lambda):
        return f"`{param.name}` is a parameter of a lambda (line {_row(func)}), whose callers spmdfix does not read"
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"`{param.name}` is a parameter whose callers do not all pass one value spmdfix reads"
    starred = param.name in (getattr(func.args.vararg, "arg", None), getattr(func.args.kwarg, "arg", None))
    kind = "the `*`/`**` parameter" if starred else "a parameter"
    owner = ev.ix.parent.get(id(func))
    named = f"{owner.name}.{func.name}" if isinstance(owner, ast.ClassDef) else func.name
    where = f"`{param.name}` is {kind} of `{named}` (line {_row(func)})"
    if isinstance(owner, ast.ClassDef) and func.name != "__init__":
        return f"{where}, a method, whose callers spmdfix does not read"
    called = owner.name if isinstance(owner, ast.ClassDef) else func.name
    calls = [c for c in ev.ix.calls if isinstance(c.func, ast.Name) and c.func.id == called]
    # (the calls of the project's other modules: `ProjectLink.passed_elsewhere`, asked when these give none)
    if not calls:
        elsewhere = ev.project.why_not_passed(param) if ev.project is not None else ""
        if elsewhere:
            return f"{where}, which no call in its module makes, and {elsewhere}"
        return f"{where}, which no call in its module makes (calls from other modules are not read)"
    if ev.ix.word_count(called) != len(calls) + 1:
        return f"{where}, and `{called}` is also used other than by a call of it in its module (passed as a value?)"
    if ev.elsewhere is not None and ev.ix.module_level_callee(param) is not None and ev.elsewhere(called):
        elsewhere = ev.project.why_not_passed(param) if ev.project is not None else ""
        if elsewhere:
            return f"{where}, called in its module and by other modules of the project, and {elsewhere}"
        return f"{where}, and other modules of the project may call `{called}` (their arguments are not read)"
    if len(calls) == 1:
        passed = _passed(func, param.name, calls[0], isinstance(owner, ast.ClassDef))
        if passed is not None and not isinstance(passed, (ast.Name, ast.Attribute)):
            return f"{where}, and its one call (line {_row(calls[0])}) passes `{short(passed)}`: {_why_value(passed)}"
        # (one call cannot "not all pass one value": say what it passes, which spmdfix did not read)
        if passed is None:
            return f"{where}, and its one call (line {_row(calls[0])}) passes it by `*`/`**` or not at all"
        return f"{where}, and its one call (line {_row(calls[0])}) passes `{short(passed)}`, whose value spmdfix does not read"
    rows = sorted({_row(c) for c in calls})
    lines = f"line{'s' if len(rows) > 1 else ''} {', '.join(str(r) for r in rows[:4])}"
    return f"{where}, and its {len(calls)} calls ({lines}) do not all pass one value spmdfix reads"


def _passed(func: ast.FunctionDef | ast.AsyncFunctionDef, name: str, call: ast.Call, init: bool) -> ast.AST | None:
    """The argument `call` passes for parameter `name` of `func` (`init`: `func` is an `__init__` called by
    constructing its class, so `self` is not passed); None when it passes none by position or keyword."""
    positional = [a.arg for a in (*func.args.posonlyargs, *func.args.args)][1 if init else 0 :]
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    if name in positional and positional.index(name) < len(call.args):
        arg = call.args[positional.index(name)]
        return None if isinstance(arg, ast.Starred) else arg
    return None


def _why_subscript(ev: Evaluator, expr: ast.Subscript) -> str:
    """Why `name[key]` is not read: a store into it under a condition or in a loop, else the generic clause."""
    if isinstance(expr.value, ast.Name):
        key = ast.dump(expr.slice)
        for node in ast.walk(ev.ix.tree):
            stores = [
                t for t in getattr(node, "targets", [])
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == expr.value.id
                and ast.dump(t.slice) == key
            ]
            if not stores:
                continue
            ancestors = list(ev.ix.ancestors(node))
            if any(isinstance(a, _LOOPS) for a in ancestors):
                return f"`{short(expr)}` is stored in a loop (line {_row(node)})"
            if any(isinstance(a, (ast.If, ast.Try)) for a in ancestors):
                return f"`{short(expr)}` is stored under a condition (line {_row(node)}), so it may be unset"
    return f"`{short(expr)}` is a subscript spmdfix cannot read"


def _why_member(ev: Evaluator, cls: ast.ClassDef, attr: ast.Attribute, depth: int = 0) -> str:
    """Why `self.NAME` is not read: the assignments of NAME in the class body and through `self`/`cls`, and
    those on other objects in the module."""
    name = attr.attr
    own = [s for s in cls.body if _assigns_name(s, name)]
    own += [
        a for a in ev.ix.attribute_assigns
        if any(_self_target(t, name) for t in a.targets) and _inside(ev, a, cls)
    ]
    others = [
        a for a in ev.ix.attribute_assigns
        if any(isinstance(t, ast.Attribute) and t.attr == name for t in a.targets) and not _inside(ev, a, cls)
    ]
    outside = f"`{name}` is set on an object outside class `{cls.name}` (line {_row(others[0])})" if others else ""
    base = _local_base_assigning(ev, cls, name) if not own and depth < 3 else None
    if base is not None:
        return f"class `{cls.name}` inherits `{name}` from `{base.name}`: " + _why_member(ev, base, attr, depth + 1)
    if not own:
        return f"class `{cls.name}` does not assign `{name}`" + (
            f"; {outside}" if outside else " (a base class or the caller sets it)"
        )
    if len(own) > 1:
        rows = ", ".join(str(r) for r in sorted(_row(a) for a in own)[:4])
        return f"`{name}` is assigned {len(own)} times in class `{cls.name}` (lines {rows})"
    if any(isinstance(anc, _LOOPS) for anc in ev.ix.ancestors(own[0])) or isinstance(own[0], _LOOPS):
        return f"`{name}` is assigned in a loop (line {_row(own[0])})"
    value = getattr(own[0], "value", None)
    if value is None:
        return f"`{name}` is declared without a value in class `{cls.name}` (line {_row(own[0])})"
    if outside and not isinstance(value, ast.Call):
        return f"{outside} as well as in the class"
    members = ev.members
    if members.redefined is not None and ev.ix.scope_at(cls) is ev.ix.module_scope and members.redefined(cls.name, name):
        return (
            f"another module of the project subclasses `{cls.name}` and gives `{name}` another value, or sets "
            f"`.{name}` on some object: which value `self` holds is not known"
        )
    field = members.is_field_default(value)
    given = members.field_given(cls, name) if field else None
    if given is not None:
        # a field's default: what stopped it is a construction that may give the field (newuser11 p3 said "`DATA`
        # is an expression spmdfix does not evaluate" of a default it reads)
        return f"`{name}` is a field whose default (line {_row(own[0])}) is not read: {given}"
    if field:
        # no construction of this module gives it, yet not every one is known to leave it (paxml's sgf.py, a
        # Fiddle-configured class built nowhere in its module, read "`None` is an expression spmdfix does not
        # evaluate" of the default `None`)
        return (
            f"`{name}` is a field whose default (line {_row(own[0])}) is not read: `{cls.name}` may be constructed "
            "with another value where spmdfix does not look (built in another module or by a configuration, "
            "subclassed, or passed as a value)"
        )
    if ev.axis_names(value, ev.ix.scope_at(value)) is not None:
        # axis names the evaluator reads: what stopped it is a write in another spelling (`writes`)
        written = members.written_in_other_spelling(cls, name)
        if written is not None:
            return f"`{name}` is assigned on line {_row(own[0])}, and may be written otherwise: {written}"
    # (a method's parameter or local name, `self.mesh = mesh` in `__init__`: what binds it, not "an expression
    # spmdfix does not evaluate", which a new user's trial read as a gap in evaluating a plain name)
    where = ev.ix.scope_at(value)
    told = _why_name(ev, value, where) if isinstance(value, ast.Name) else _why_value(value, ev, where)
    return f"`{name}` is assigned on line {_row(own[0])}, where {told}"


def _local_base_assigning(ev: Evaluator, cls: ast.ClassDef, name: str) -> ast.ClassDef | None:
    """The first base of `cls` that is a class of this module and assigns `name` in its body or through
    `self`/`cls` in its methods."""
    for base in cls.bases:
        bound = ev.ix.single_binding(base.id, ev.ix.scope_at(cls)) if isinstance(base, ast.Name) else None
        if bound is None or bound.kind is not BindingKind.CLASS:
            continue
        node = bound.node
        if any(_assigns_name(s, name) for s in node.body) or any(
            _self_target(t, name) and _inside(ev, a, node) for a in ev.ix.attribute_assigns for t in a.targets
        ):
            return node
    return None


def _assigns_name(stmt: ast.stmt, name: str) -> bool:
    """A class-body statement binding `name`: an assignment, or a loop whose target or body does."""
    if isinstance(stmt, ast.Assign):
        return any(isinstance(n, ast.Name) and n.id == name for t in stmt.targets for n in ast.walk(t))
    if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        return isinstance(stmt.target, ast.Name) and stmt.target.id == name
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        bound = any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(stmt.target))
        return bound or any(_assigns_name(s, name) for s in stmt.body)
    if isinstance(stmt, (ast.If, ast.While, ast.With, ast.Try)):
        return any(_assigns_name(s, name) for s in getattr(stmt, "body", []) + getattr(stmt, "orelse", []))
    return False


def _self_target(target: ast.AST, name: str) -> bool:
    return (
        isinstance(target, ast.Attribute) and target.attr == name
        and isinstance(target.value, ast.Name) and target.value.id in ("self", "cls")
    )


def _inside(ev: Evaluator, node: ast.AST, cls: ast.ClassDef) -> bool:
    return any(anc is cls for anc in ev.ix.ancestors(node))


def _row(node: ast.AST) -> int:
    return getattr(node, "lineno", 0)
