"""The value a parameter gets when its function is called from other modules of the project.

A module-level function or class may be called only by other modules: `def accumulate(fn, xs,
spmd_axis_name=('data',))` in model.py called as `accumulate(apply, xs)` in train.py, or `class Layer: def
__init__(self, scale, axis='x')` constructed as `Layer(1.0)` there. Its own module's calls
(`ModuleIndex.argument_for`) then say nothing of the parameter, and the analysis stopped with an SPMD910 record
("which no call in its module makes"). Here the calls of every module are read:

- the function (and the class of an `__init__`) is not decorated: a decorator may call it with arguments of its
  own (`@twice` calling `block(x, 'data')` for a caller's `block(x, 'model')`);
- every read of the function's (or class's) name in the other modules of the project (`importers.imported_uses`:
  `from m import f`, `m.f`, re-exports) must be the callee of a call; a read that passes it on, stores it or
  subclasses the class, and any place that may reach it unseen (`from m import *`, `importlib`, an importer
  that cannot be read, more importers than the budget), leaves the value unknown;
- in its own module, every occurrence of the name must be its definition or a call of it (as
  `ModuleIndex.argument_for` counts them);
- each call passes an expression for the parameter, or leaves it out and passes no `*args`/`**kwargs`, which
  gives the default written in the function's module; each is followed to its value by its own module's
  evaluator, and all of them must be the same value: one node, or equal literals (`'data'` written twice).

The answer is the value with the evaluator of the module it is written in; None otherwise. Pure: the index
reads. An answer is kept for the check under way with what computing it read (the importers, the modules its
values were followed into, who imports them: `ProjectIndex.recording`), recorded again each time it is given,
so that a results cache keys every outcome that used it by those modules.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from spmdfix import jaxapi
from spmdfix.analysis.bindings import Binding, BindingKind, Scope
from spmdfix.analysis.calls import argument
from spmdfix.analysis.importers import imported_uses, module_path
from spmdfix.analysis.scopes import default_of
from spmdfix.paths import relpath

if TYPE_CHECKING:
    from spmdfix.analysis.index import ProjectIndex
    from spmdfix.analysis.module_model import ModuleModel
    from spmdfix.analysis.values import Evaluator

# Importers read at most per name (`importers.imported_uses`' budget): asked while values are evaluated, in the
# analysis of every module whose parameter is not given by its own calls.
SEARCH_BUDGET = 32
_IN_PROGRESS = object()
Value = tuple["Evaluator", ast.AST, Scope]


def callable_passed_elsewhere(
    index: ProjectIndex, owner: ModuleModel, param: Binding
) -> tuple[ModuleModel, ast.FunctionDef | ast.AsyncFunctionDef] | None:
    """The one function every call in the project passes for `param` (as `passed_elsewhere`), with the model of
    its module: each call passes a name bound to a `def` of its module, or imported from a module of the
    project that defines it so, and all of them the same `def` (`accumulate(apply, xs)` in train.py gives
    train.py's `apply`). None otherwise: a lambda, a `functools.partial`, a method, a value computed at run
    time, or two calls passing two functions."""
    key = ("callable_passed_elsewhere", id(owner), id(param.node))
    return _kept(index, key, lambda: _passed(index, owner, param, _function_at))[0]  # type: ignore[return-value]


def passed_elsewhere(index: ProjectIndex, owner: ModuleModel, param: Binding) -> Value | None:
    """The one value every call in the project passes for `param`, a parameter of a module-level function
    (or of the `__init__` of a module-level class) of `owner`, with the evaluator of the module that writes it;
    None when it is not one known value (module doc)."""
    return _kept(index, ("passed_elsewhere", id(owner), id(param.node)), _values_of(index, owner, param))[0]  # type: ignore[return-value]


def argument_elsewhere(index: ProjectIndex, owner: ModuleModel, param: Binding) -> tuple[object, str]:
    """(the argument the one call of the project passes for `param`, a parameter of a module-level function of
    `owner` that its own module never calls: `(model of the calling module, the expression, the scope of the
    call)`, or None; why not, in words that follow "which no call in its module makes, and"). The expression is
    not followed here: what the caller wrote is read there, by its module's analysis (where `accumulate(apply,
    xs)` in train.py places `xs`: `vmap_calls`). None, with the module doc's reasons, when the calls are not all
    known, when there is not exactly one, or when it leaves the parameter to its default."""
    key = ("argument_elsewhere", id(owner), id(param.node))
    return _kept(index, key, lambda: _one_argument(index, owner, param))


def why_not_passed(index: ProjectIndex, owner: ModuleModel, param: Binding) -> str:
    """Why `passed_elsewhere` gives no value for `param`, in words that follow "which no call in its module
    makes, and" (an SPMD910 record's: `unknown_values`); "" when it gives one."""
    return _kept(index, ("passed_elsewhere", id(owner), id(param.node)), _values_of(index, owner, param))[1]


def _values_of(index: ProjectIndex, owner: ModuleModel, param: Binding):
    return lambda: _passed(index, owner, param, _value_at)


def _kept(index: ProjectIndex, key: tuple, answer_of) -> tuple[object, str]:
    """`answer_of()` (an answer and why it is None) kept for the check under way (`ProjectIndex.per_check`),
    with what computing it read (`ProjectIndex.recording`: the modules, who imports them), which each later
    answer records again (a summary computed later in the check depends on them as much); no answer when
    asked again while it is being answered (a cycle of parameters passed on)."""
    kept = index.per_check.get(key)
    if kept is _IN_PROGRESS:
        return None, "its calls pass it on from a parameter in turn, in a cycle"
    if kept is not None:
        answer, why, depends = kept  # type: ignore[misc]
        index.touch_depends(depends)
        return answer, why
    index.per_check[key] = _IN_PROGRESS
    with index.recording() as depends:
        answer, why = answer_of()
    index.per_check[key] = (answer, why, tuple(depends))
    return answer, why


def _passed(index: ProjectIndex, owner: ModuleModel, param: Binding, value_at) -> tuple[object, str]:
    """(what every call in the project passes for `param`, each read by `value_at`, or None; why not, in words
    that follow "which no call in its module makes, and": `why_not_passed`) by the module doc's rules."""
    found, why = _project_calls(index, owner, param)
    if found is None:
        return None, why
    calls, func, position = found
    values = []
    for model, call in calls:
        value = value_at(owner, func, param.name, position, model, call)
        if value is None:
            return None, f"the call at {_at(module_path(model), call)} passes no value spmdfix reads for it"
        values.append(value)
    first = values[0]
    if all(_same(first[1], v[1]) for v in values[1:]):
        return first, ""
    other = next(call for (model, call), v in zip(calls, values) if not _same(first[1], v[1]))
    return None, (
        f"the calls of the project pass different values (line {calls[0][1].lineno} of "
        f"{relpath(module_path(calls[0][0]))}, line {other.lineno} of "
        f"{relpath(module_path(next(m for m, c in calls if c is other)))})"
    )


def _project_calls(index: ProjectIndex, owner: ModuleModel, param: Binding) -> tuple[object, str]:
    """((every call of `param`'s function in the project, its own module's first, with the calling module's
    model; the function; the parameter's position or None), or None; why not) by the module doc's rules."""
    ix = owner.ix
    name = ix.module_level_callee(param)
    func = ix.parent.get(id(param.node))
    if name is None or not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None, "it is not a function of module level that another module may call"
    holder = ix.parent.get(id(func))
    init = isinstance(holder, ast.ClassDef)
    if init and func.name != "__init__":
        # (its callers reach it through instances, which are not followed here)
        return None, f"`{func.name}` is a method, whose callers spmdfix does not read"
    if func.decorator_list or (init and holder.decorator_list):  # type: ignore[union-attr]
        return None, f"`{name}` is decorated: the decorator may call it with other arguments than its callers pass"
    positional = [a.arg for a in (*func.args.posonlyargs, *func.args.args)][1 if init else 0 :]
    if param.name not in positional and param.name not in {a.arg for a in func.args.kwonlyargs}:
        return None, f"`{param.name}` is not passed by name or position"  # (`*args`, `**kwargs`, `self`)
    position = positional.index(param.name) if param.name in positional else None
    calls: list[tuple[ModuleModel, ast.Call]] = []
    defined = ix.single_binding(name, ix.module_scope)
    own = ix.calls_of_name(name)
    if defined is None or any(getattr(ix.single_binding(name, ix.scope_at(c)), "node", None) is not defined.node for c in own):
        return None, f"`{name}` is bound more than once in its module"
    if ix.word_count(name) != len(own) + 1:
        # (passed on, stored, rebound, or named in a string)
        return None, f"`{name}` is used in its module other than by a call of it (passed as a value?)"
    calls += [(owner, c) for c in own]
    far, why = _calls_elsewhere(index, owner, name)
    if far is None:
        return None, why
    wrapper = _named_wrapper(owner, func)
    for model, call in far:
        if wrapper and argument(call, None, jaxapi.VMAP_SPMD_KEYWORD) is not None:
            # `batched(step, spmd_axis_name='x')` of a wrapper returning `jax.vmap(fn, spmd_axis_name=...)`: a
            # vmap site of the calling module (`vmap_sites._wrapper_site`), analysed there; read here too, the
            # same collision was reported twice
            return None, f"the call at {_at(module_path(model), call)} is a vmap site of its own module, analysed there"
    calls += far
    if not calls:
        return None, "no module of the project calls it either"
    return (calls, func, position), ""


def _one_argument(index: ProjectIndex, owner: ModuleModel, param: Binding) -> tuple[object, str]:
    """`argument_elsewhere`'s answer and why not."""
    found, why = _project_calls(index, owner, param)
    if found is None:
        return None, why
    calls, _, position = found
    if any(model is owner for model, _ in calls):
        return None, "its module calls it too"  # (`ModuleIndex.argument_for` reads those calls)
    if len(calls) > 1:
        (first, a), (second, b) = calls[:2]
        return None, (
            f"{len(calls)} calls of the project pass it (line {a.lineno} of {relpath(module_path(first))}, line "
            f"{b.lineno} of {relpath(module_path(second))})"
        )
    model, call = calls[0]
    expr = argument(call, position, param.name)
    if expr is None:
        return None, f"the call at {_at(module_path(model), call)} leaves it to its default"
    return (model, expr, model.ix.scope_at(call)), ""


def constructions_elsewhere(index: ProjectIndex, owner: ModuleModel, name: str) -> list[tuple[ModuleModel, ast.Call]] | None:
    """Every call of `owner`'s module-level class (or function) `name` in the project's other modules, with the
    model of each calling module (`[]`: none); None when some read of the name there is no call of it, or a
    place may reach it unseen (`_calls_elsewhere`). What `members.ClassMembers` asks of a dataclass or flax
    Module field's default that its own module's constructions leave alone (`Layer()` in train.py)."""
    key = ("constructions_elsewhere", id(owner), name)
    return _kept(index, key, lambda: _calls_elsewhere(index, owner, name))[0]  # type: ignore[return-value]


def _calls_elsewhere(index: ProjectIndex, owner: ModuleModel, name: str) -> tuple[list[tuple[ModuleModel, ast.Call]] | None, str]:
    """(the calls of `owner`'s module-level `name` in the project's other modules, or None; why not): every read
    of the name there (`importers.imported_uses`) must be the callee of a call, and no place may reach it
    unseen (a star import, `importlib`, an unreadable importer, more importers than the budget)."""
    uses = imported_uses(index, owner, name, values=False, models=index.checked_models(), budget=SEARCH_BUDGET)
    if uses is None:
        return None, (
            f"the modules that may import `{name}` are not known (no import graph of the project, or more than "
            f"{SEARCH_BUDGET} of them)"
        )
    if uses.sites:
        return None, f"{uses.sites[0].describe()} may reach `{name}` unseen"
    calls = []
    for model, reads in uses.reads:
        path = module_path(model)
        for expr in reads:
            call = model.ix.parent.get(id(expr))
            if not isinstance(call, ast.Call) or call.func is not expr:
                return None, f"{_at(path, expr)} reads `{name}` other than by calling it"
            calls.append((model, call))
    return calls, ""


def _at(path: str, node: ast.AST) -> str:
    """`line N of <path>`, as a reason names a place of another module."""
    return f"line {getattr(node, 'lineno', 1)} of {relpath(path)}"


def _named_wrapper(owner: ModuleModel, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether `func` returns a vmap of its parameter with its own parameter `spmd_axis_name` as the vmap's
    (`vmap_sites._named_wrapper`), whose calls passing that keyword are vmap sites of their modules."""
    from spmdfix.analysis.vmap_sites import (
        _named_wrapper as named,  # (vmap sites read values: imported late)
    )

    return isinstance(func, ast.FunctionDef) and named(owner.ev, func) is not None


def _function_at(
    owner: ModuleModel, func: ast.FunctionDef | ast.AsyncFunctionDef, name: str, position: int | None,
    model: ModuleModel, call: ast.Call,
) -> tuple[ModuleModel, ast.FunctionDef | ast.AsyncFunctionDef] | None:
    """The `def` `call` (in `model`) passes for parameter `name` of `func` by a name (module doc), with its
    module's model; the default is not read (a callable default is a value of its own: left unknown)."""
    expr = argument(call, position, name)
    if not isinstance(expr, ast.Name):
        return None
    binding = model.ix.single_binding(expr.id, model.ix.scope_at(call))
    if binding is None:
        return None
    if binding.kind is BindingKind.DEF:
        return model, binding.node  # type: ignore[return-value]
    if binding.kind is BindingKind.IMPORT and model.project is not None:
        found = model.project.binding(binding.qname)
        if found is None or found[1].kind is not BindingKind.DEF:
            return None
        there, bound = found
        # A `def` of the module checked stays the index's model of it (not the checked model, whose parameters
        # are read from its own calls only, `module_model._elsewhere`): passed here as a value, it runs with the
        # arguments of whatever calls it (a vmap: its defaults), which that module's calls do not tell
        # (breaker9 t13, t15: `accumulate(inner, xs)` in train.py, model.py's own `inner(x, 'model')` read as the
        # axis of the vmap's call). Its places are located as the checked module's (`source_analysis._as_checked`).
        return there, bound.node  # type: ignore[return-value]
    return None


def _value_at(
    owner: ModuleModel, func: ast.FunctionDef | ast.AsyncFunctionDef, name: str, position: int | None,
    model: ModuleModel, call: ast.Call,
) -> Value | None:
    """The value `call` (in `model`) passes for parameter `name` of `func` (of `owner`), followed to its end;
    the default, in `owner`, when the call leaves it out and passes no `*args`/`**kwargs`."""
    expr = argument(call, position, name)
    if expr is not None:
        return model.ev.follow(expr, model.ix.scope_at(call))
    default = default_of(func, name, call)
    if default is None:
        return None
    return owner.ev.follow(default, owner.ix.scope_at(func))


def _same(a: ast.AST, b: ast.AST) -> bool:
    """Whether two values followed to their end are one value: the same node, or equal literals (constants,
    and tuples or lists of them)."""
    if a is b:
        return True
    return _literal(a) and _literal(b) and ast.dump(a) == ast.dump(b)


def _literal(node: ast.AST) -> bool:
    return all(isinstance(n, (ast.Constant, ast.Tuple, ast.List, ast.expr_context)) for n in ast.walk(node))
