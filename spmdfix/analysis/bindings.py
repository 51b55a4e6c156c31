"""What binds a name: the binding records (`BindingKind`, `Binding`, `Scope`) and the one pass over a
module's `ast` that records every binding in its scope (`bind_module`, run by `scopes.ModuleIndex`).

The pass also records what the index's queries need: each node's parent and the scope it is evaluated in,
the calls with the def that owns each, the name loads, the assignments to attributes. Imports are bound to
the absolute name they import (`from .layers import f` in package `pkg` binds `f` to `pkg.layers.f`), which is
what `scopes.ModuleIndex.qualname` resolves aliases with.
"""

from __future__ import annotations

import ast
import enum
import operator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spmdfix.analysis.scopes import ModuleIndex
    from spmdfix.analysis.values import Evaluator

_SCOPE_NODES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef})
_BINDING_NODES = frozenset(
    {
        ast.Assign,
        ast.AnnAssign,
        ast.NamedExpr,
        ast.AugAssign,
        ast.For,
        ast.AsyncFor,
        ast.comprehension,
        ast.withitem,
        ast.ExceptHandler,
        ast.Import,
        ast.ImportFrom,
        ast.MatchAs,
        ast.MatchStar,
    }
)
_NOT_CHILDREN = frozenset({"ctx", "id", "attr", "arg", "name", "level", "kind", "type_comment", "conversion", "simple"})
_FIELDS: dict[type, tuple[str, ...]] = {}
# Never looked up and never holding a child: constants, and the non-node values fields may hold.
_LEAVES = frozenset({ast.Constant, type(None), str, int, float, complex, bool, bytes, type(...)})


def child_fields(kind: type) -> tuple[str, ...]:
    """The fields of an ast node type that can hold child nodes (cached per type)."""
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = tuple(f for f in kind._fields if f not in _NOT_CHILDREN)
    return fields

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
# The node types of a function (for `isinstance`): the one definition the analysis modules share
FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
ScopeNode = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef


class BindingKind(enum.Enum):
    """What binds a name, and so what a `Binding`'s node is (ruff's `BindingKind`, coarser).

    IMPORT: `import m` / `from m import n` (the binding's qname set, the node the import statement); DEF /
    CLASS: a `def` or `class` statement (the node is the definition); ASSIGN: a plain assignment of a value
    (the node is the assigned value expression); PARAM: a parameter of a def or lambda (the node is the
    `ast.arg`); OTHER: anything else (loop targets, `with ... as`, unpacking, `except ... as`, match
    captures), whose value the analysis does not follow.
    """

    IMPORT = "import"
    DEF = "def"
    CLASS = "class"
    ASSIGN = "assign"
    PARAM = "param"
    OTHER = "other"


# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@dataclass(slots=True, eq=False, repr=False)
class Binding:
    """One binding of a name in one scope; `kind` says what binds it and what `node` is (`BindingKind`)."""

    name: str
    kind: BindingKind
    node: ast.AST
    scope: Scope
    qname: str | None = None


@dataclass(slots=True, eq=False, repr=False)
class Scope:
    """A module, function, lambda or class scope with the bindings made directly in it."""

    node: ast.AST
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)

    @property
    def is_class(self) -> bool:
        return isinstance(self.node, ast.ClassDef)

    def bind(self, name: str, kind: BindingKind, node: ast.AST, qname: str | None = None) -> None:
        self.bindings.setdefault(name, []).append(Binding(name, kind, node, self, qname))



def bind_module(ix: ModuleIndex, tree: ast.Module) -> None:
    """Fill the tables of `ix` (parents, scopes, bindings, calls, name loads, attribute reads and assignments)
    from `tree`: one iterative pass over every node (an explicit stack: recursion costs twice as much on big
    files); calls are sorted into source order at the end."""
    # (node, its parent, the scope it is evaluated in, the innermost def around it or the module)
    stack: list[tuple[ast.AST, ast.AST, Scope, ast.AST]] = [(n, tree, ix.module_scope, tree) for n in tree.body]
    parent, enclosing, calls, loads, owners = ix.parent, ix.enclosing, ix.calls, ix.name_loads, ix.owner
    attributes = ix.attributes
    push, pop = stack.append, stack.pop
    call_type, name_type, load_type, attribute_type, skipped = ast.Call, ast.Name, ast.Load, ast.Attribute, _LEAVES
    while stack:
        node, up, scope, owner = pop()
        key = id(node)
        parent[key] = up
        enclosing[key] = scope
        kind = node.__class__
        if kind is name_type:
            if node.ctx.__class__ is load_type:
                loads.setdefault(node.id, []).append(node)
            continue  # a name holds no child node
        if kind is call_type:
            calls.append(node)
            owners[key] = owner
        elif kind is attribute_type:
            attributes.append(node)
        elif kind in _SCOPE_NODES:
            _open_scope(ix, node, scope, owner, stack)
            continue
        elif kind in _BINDING_NODES:
            _bind_statement(ix, node, scope)
        fields = _FIELDS.get(kind) or child_fields(kind)
        for name in fields:
            value = getattr(node, name, None)
            if value.__class__ is list:
                for child in value:
                    if child.__class__ not in skipped:
                        push((child, node, scope, owner))
            elif value.__class__ not in skipped:
                push((value, node, scope, owner))
    calls.sort(key=POSITION)


def _open_scope(ix: ModuleIndex, node: ast.AST, scope: Scope, owner: ast.AST, stack: list) -> None:
    """A def, lambda or class: bind its name, queue what the outer scope evaluates, open its scope. A def
    owns the calls of its body, decorators and defaults (`owner`); a lambda's or a class's are their
    owner's."""
    outer: list[ast.AST] = []
    inner = Scope(node, scope)
    ix.scope_by_node[id(node)] = inner
    if isinstance(node, ast.ClassDef):
        scope.bind(node.name, BindingKind.CLASS, node)
        outer = [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]
        body = node.body
    else:
        if not isinstance(node, ast.Lambda):
            scope.bind(node.name, BindingKind.DEF, node)
            outer = list(node.decorator_list)
        args = node.args
        outer += [d for d in (*args.defaults, *args.kw_defaults) if d is not None]
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if arg is not None:
                inner.bind(arg.arg, BindingKind.PARAM, arg)
                ix.parent[id(arg)] = node
        body = [node.body] if isinstance(node, ast.Lambda) else node.body
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        owner = node
    stack.extend((b, node, inner, owner) for b in body)
    stack.extend((o, node, scope, owner) for o in outer)
    _annotation_loads(ix, node)


def _annotation_loads(ix: ModuleIndex, node: ast.AST) -> None:
    """The name loads and attributes of a def's annotations and of type parameters (Python 3.12), which the
    walk does not enter (it records no parent nor scope for them: they are evaluated in the scope around the
    def)."""
    roots: list[ast.AST] = list(getattr(node, "type_params", ()))
    if not isinstance(node, (ast.ClassDef, ast.Lambda)):
        args = node.args  # type: ignore[attr-defined]
        every = (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
        roots += [a.annotation for a in every if a is not None and a.annotation is not None]
        if node.returns is not None:  # type: ignore[attr-defined]
            roots.append(node.returns)  # type: ignore[attr-defined]
    for root in roots:
        for child in ast.walk(root):
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                ix.name_loads.setdefault(child.id, []).append(child)
            elif isinstance(child, ast.Attribute):
                ix.attributes.append(child)


def _bind_statement(ix: ModuleIndex, node: ast.AST, scope: Scope) -> None:
    if isinstance(node, ast.Assign):
        for target in node.targets:
            _bind_target(target, node.value, scope)
        if any(target.__class__ is ast.Attribute for target in node.targets):
            ix.attribute_assigns.append(node)
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        _bind_target(node.target, node.value, scope)
    elif isinstance(node, ast.NamedExpr):
        _bind_target(node.target, node.value, scope)
    elif isinstance(node, ast.AugAssign):
        _bind_target(node.target, None, scope)
    elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        _bind_target(node.target, None, scope)
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        _bind_target(node.optional_vars, None, scope)
    elif isinstance(node, ast.ExceptHandler) and node.name:
        scope.bind(node.name, BindingKind.OTHER, node)
    elif isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                scope.bind(alias.asname, BindingKind.IMPORT, node, alias.name)
            else:
                top = alias.name.split(".")[0]
                scope.bind(top, BindingKind.IMPORT, node, top)
    elif isinstance(node, ast.ImportFrom):
        base = _absolute(ix, node.level, node.module)
        for alias in node.names:
            if alias.name == "*":
                continue
            qname = f"{base}.{alias.name}" if base and not base.endswith(".") else base + alias.name
            scope.bind(alias.asname or alias.name, BindingKind.IMPORT, node, qname)
    elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        scope.bind(node.name, BindingKind.OTHER, node)


def imported_module(ix: ModuleIndex, node: ast.ImportFrom) -> str:
    """The module the `from` import `node` of the module `ix` names, absolute when its package is known (else
    with its leading dots: `_absolute`)."""
    return _absolute(ix, node.level or 0, node.module)


def _absolute(ix: ModuleIndex, level: int, module: str | None) -> str:
    """The module a `from` import names: absolute when the package is known (Python's rule: each dot
    past the first climbs one package), else with its leading dots."""
    if level == 0:
        return module or ""
    if ix.package is not None:
        parts = ix.package.split(".") if ix.package else []
        if level - 1 <= len(parts):
            base = parts[: len(parts) - (level - 1)]
            return ".".join([*base, *([module] if module else [])])
    return "." * level + (module or "")


def _bind_target(target: ast.AST, value: ast.AST | None, scope: Scope) -> None:
    if isinstance(target, ast.Name):
        if value is None:
            scope.bind(target.id, BindingKind.OTHER, target)
        else:
            scope.bind(target.id, BindingKind.ASSIGN, value)
    elif isinstance(target, (ast.Tuple, ast.List)):
        # `STAGE, MODEL = 'stage', 'model'`: each name is bound to its element of a display as long.
        pairs = (
            isinstance(value, (ast.Tuple, ast.List))
            and len(value.elts) == len(target.elts)
            and not any(isinstance(e, ast.Starred) for e in (*value.elts, *target.elts))
        )
        for i, elt in enumerate(target.elts):
            element = value.elts[i] if pairs else None  # type: ignore[union-attr]
            _bind_target(elt.value if isinstance(elt, ast.Starred) else elt, element, scope)


POSITION = operator.attrgetter("lineno", "col_offset")  # a node's place in the source, as a sort key


def param_default(binding: Binding) -> ast.AST | None:
    """The default written for the parameter a PARAM `binding` binds (`def body(b, f=jnp.interp)`: `jnp.interp`;
    its scope's node is the `def` or `lambda`), or None: no default, or not a positional or keyword-only one."""
    args = getattr(binding.scope.node, "args", None)
    if args is None:
        return None
    positional = [*args.posonlyargs, *args.args]
    if binding.node in positional:
        offset = positional.index(binding.node) - (len(positional) - len(args.defaults))
        return args.defaults[offset] if offset >= 0 else None
    if binding.node in args.kwonlyargs:
        return args.kw_defaults[args.kwonlyargs.index(binding.node)]
    return None


def callable_target(binding: Binding) -> tuple[ast.AST, Scope] | None:
    """What calling the top-level `binding` of a module runs: a function, a class's `__call__`, a callable
    value (with the scope it is evaluated in); None for anything else."""
    if binding.kind is BindingKind.DEF:
        return binding.node, binding.scope
    if binding.kind is BindingKind.CLASS:
        for stmt in binding.node.body:  # type: ignore[attr-defined]
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == "__call__":
                return stmt, binding.scope
        return None
    if binding.kind is BindingKind.ASSIGN:
        return binding.node, binding.scope
    return None


# Not frozen, eq=False: a scope made per call evaluated (`Evaluator.called`), compared by identity as scopes are.
@dataclass(slots=True, eq=False, repr=False)
class BoundScope(Scope):
    """The scope of one call of a project function, as the evaluator sees its return value: the function's
    own scope (`parent`), with its parameters bound to what this call passes (`arguments`: by name, the
    evaluator of the module the value is written in, the value, and the scope it is evaluated in; a
    parameter left out is bound to its default). Names that are not parameters resolve as in the function."""

    arguments: dict[str, tuple[Evaluator, ast.AST, Scope]] = field(default_factory=dict)
