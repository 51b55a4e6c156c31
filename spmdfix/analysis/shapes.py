"""Static shapes and integers of the array expressions a module passes, read from its literals: the batch size
of a vmapped call (`vmap_calls`) and the rank of a shard_map operand (`ranks`) come from here.

`StaticShapes.shape` reads `jnp.zeros((4, 8))`, `jnp.arange(32).reshape(4, 8)`, `jax.random.normal(key, (4, 8))`,
`jax.device_put(x, ...)`, `x * 2.0` and lists (displays, repeated by `*`, joined by `+`, as `np.array` builds
them); `int_expr` reads integers built from literals and module
constants. Names are followed to the value they hold where they are used (`resolve`): a name bound once, or a
name reassigned in straight-line code. Anything else gives None: a size spmdfix cannot see is never guessed.
"""

from __future__ import annotations

import ast

from spmdfix.analysis.bindings import BindingKind, Scope
from spmdfix.analysis.calls import argument
from spmdfix.analysis.follow import INTEGER, SHAPE, STRAIGHT_LINE, Follow
from spmdfix.analysis.module_model import ModuleModel

_FILLED = frozenset({"zeros", "ones", "empty", "full"})
# jax.random samplers and the position of their `shape` parameter (jax 0.10.2 signatures: bernoulli(key, p,
# shape), truncated_normal(key, lower, upper, shape); the others (key, shape, ...)).
_RANDOM = {"normal": 1, "uniform": 1, "bernoulli": 2, "truncated_normal": 3, "randint": 1, "gumbel": 1,
           "laplace": 1}
_SAME_SHAPE = frozenset({"asarray", "array", "device_put", "float32", "abs", "exp", "sin", "cos", "tanh"})
# The array modules whose own functions (not their submodules': `numpy.matlib.ones(8)` is a (1, 8) matrix) are read.
_ARRAY_MODULES = ("jax.numpy.", "numpy.")
# The number constants a `linspace` endpoint may be (`StaticShapes._scalar`), and the operators keeping a number
_NUMBER_CONSTANTS = frozenset(
    [f"{module}.{name}" for module in ("numpy", "jax.numpy") for name in ("pi", "e", "inf", "nan")]
    + [f"math.{name}" for name in ("pi", "e", "tau", "inf", "nan")]
)
_SCALAR_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow, ast.Mod)
# The compound statements whose bodies run conditionally or repeatedly, and the keyword a message names each by
# (`StaticShapes.rebinding`).
_KEYWORDS = {
    ast.If: "if", ast.For: "for", ast.AsyncFor: "async for", ast.While: "while", ast.Try: "try",
    ast.With: "with", ast.AsyncWith: "async with", ast.Match: "match",
}
if hasattr(ast, "TryStar"):  # (Python 3.11+)
    _KEYWORDS[ast.TryStar] = "try"
# The binding forms other than a plain `=` that the straight-line reading does not read, keyed by the node above
# the bound name (or, for `except ... as` and `match` captures, by the binding's own node): `_unread_form`.
_FORMS = {
    ast.NamedExpr: "a `:=` expression", ast.AugAssign: "an augmented assignment", ast.Tuple: "an unpacking",
    ast.List: "an unpacking", ast.Starred: "an unpacking", ast.withitem: "a `with ... as`",
    ast.ExceptHandler: "an `except ... as`", ast.MatchAs: "a `match` capture", ast.MatchStar: "a `match` capture",
    ast.comprehension: "a comprehension",
}


class StaticShapes:
    """Static shapes and integers of one module's expressions (its `ModuleModel`). Pure."""

    def __init__(self, model: ModuleModel) -> None:
        self.ix = model.ix
        self.model = model

    # --- names ------------------------------------------------------------------------------------
    def resolve(self, expr: ast.AST, scope: Scope, params: bool = False) -> tuple[ast.AST, Scope] | None:
        """Follow names to the value they hold here: a name bound once (`Evaluator.resolve_name`), or a name
        reassigned in straight-line code (`x = ...; x = jax.device_put(x, ...)`), whose value at a use is the
        last assignment before it in the same statement list; with `params`, a parameter to the argument
        every call passes (`_passed`). None past `follow.STRAIGHT_LINE` names."""
        step = Follow(STRAIGHT_LINE)
        while not step.spent:
            step = step.deeper()
            if not isinstance(expr, ast.Name):
                return expr, scope
            if self._declared_nonlocal_or_global(expr.id):
                return None
            binding = self.ix.single_binding(expr.id, scope)
            if params and binding is not None and binding.kind is BindingKind.PARAM:
                passed = self._passed(binding)
                if passed is None:
                    return None
                expr, scope = passed
                continue
            if binding is not None:
                if binding.kind is not BindingKind.ASSIGN:
                    return None
                if self._list_changed(expr.id, binding.scope, binding.node):
                    return None
                expr, scope = binding.node, binding.scope
                continue
            found = self._straight_line_value(expr, scope)
            if found is None or self._list_changed(expr.id, scope, found):
                return None
            expr = found
        return None

    def _list_changed(self, name: str, scope: Scope, value: ast.AST) -> bool:
        """Whether `value`, a sequence holding a Python list bound to `name` in `scope` (`_list_kind`), may be
        changed after it is bound, so that what it holds at a use is not what it was bound to: some load of
        `name` resolving to `scope`'s bindings is not a harmless read (`_harmless_load`). False for values
        holding no list (tuples of numbers, numbers, arrays cannot change in place).

        `jax.random.normal(key, shape)` after `shape = [8, 8]; shape[0] = 6` was read as 8 rows and a rename to
        a size-4 axis made SAFE raised `not evenly divisible` (breaker13 r24); the same through an alias
        (`alias = shape; alias[0] = 6`), a container (`holder = [shape]`), or an inner row (`rows[0].append(0.0)`,
        `for r in rows: r.append(0.0)`) was still read as bound (shapes16)."""
        kind = self._list_kind(value)
        if kind is None:
            return False
        own = scope.bindings.get(name, [])
        for load in self.ix.loads_of(name):
            found = self.ix.lookup(name, self.ix.scope_at(load))
            if any(b in own for b in found) and not self._harmless_load(load, flat=kind == "flat"):
                return True
        return False

    def _list_kind(self, value: ast.AST) -> str | None:
        """Whether a bound value holds a Python list that a later statement could change: None when it holds
        none (a tuple of numbers, an array call, a number); "flat" when its lists (the value, or the operands of
        a `+`/`*` building it) hold only items that are no container and no name (numbers, calls: changing the
        list itself is all that can change it); "nested" when a list holds or is held by containers or names
        (an inner list may be changed through another reference to it)."""
        spine, items = [], []
        todo = [value]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult)):
                todo += [node.left, node.right]
            elif isinstance(node, (ast.List, ast.Tuple)):
                spine.append(node)
                items += node.elts
            elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.Dict, ast.Set)):
                spine.append(node)
                items.append(node)  # what it holds is not read: treat it as holding containers
        if not any(isinstance(n, (ast.List, ast.ListComp)) for n in spine) and not any(
            isinstance(n, (ast.List, ast.ListComp)) for item in items for n in ast.walk(item)
        ):
            return None
        containers = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp,
                      ast.GeneratorExp, ast.Name, ast.Attribute, ast.Subscript, ast.Starred, ast.BinOp)
        return "nested" if any(isinstance(item, containers) for item in items) else "flat"

    def _harmless_load(self, load: ast.Name, flat: bool) -> bool:
        """Whether a load of a name bound to a list cannot change what the list holds and keeps no other
        reference to it: an argument (through `+`, `*`, displays and `*` unpacking built on the spot) of a numpy,
        jax.numpy or jax call or of `len` (none of them changes a Python list it is given); for a `flat` list
        also an item read (`shape[0]`), an iteration, a comparison, or `+`/`*` building a new list (its items
        are numbers, which nothing can change). Anything else (a method, a store, an assignment keeping an
        alias, a container stored in a name, any other call, a `return`) may change it or let it change."""
        node, direct = load, True
        while True:
            up = self.ix.parent.get(id(node))
            if isinstance(up, ast.keyword):
                node, up = up, self.ix.parent.get(id(up))
            if isinstance(up, ast.Call) and node is not up.func:
                scope = self.ix.scope_at(up)
                qname = self.ix.qualname(up.func, scope) or ""
                if isinstance(up.func, ast.Name) and up.func.id == "len" and not self.ix.lookup("len", scope):
                    return True  # the builtin (no binding of the name `len` shadows it)
                return qname.startswith(_ARRAY_MODULES) or qname.startswith("jax.")
            if isinstance(up, ast.BinOp):
                node = up
                continue
            if isinstance(up, (ast.List, ast.Tuple, ast.Set, ast.Starred)) and not isinstance(
                getattr(up, "ctx", ast.Load()), (ast.Store, ast.Del)
            ):
                node, direct = up, False
                continue
            if not (flat and direct):
                return False
            if isinstance(up, ast.Subscript):
                return up.value is node and isinstance(up.ctx, ast.Load)
            if isinstance(up, (ast.comprehension, ast.For, ast.AsyncFor)):
                return up.iter is node
            return isinstance(up, ast.Compare)

    def _declared_nonlocal_or_global(self, name: str) -> bool:
        """Whether a `nonlocal` or `global` statement of the module names `name`: a function declaring it may
        rebind it when called, between an assignment this reading sees and the use (a nested `def` with
        `nonlocal xs` re-placing the batch, a helper with `global XS`), which the scopes' bindings do not show
        (the assignment binds in the declaring function). Such a name is not read: a placement read from the
        assignment before made add-axis SAFE on programs it breaks (breaker10 t15, t21, t22)."""
        return name in self.ix.declared_names()

    def rebinding(self, name: ast.Name, scope: Scope) -> tuple[int, str] | None:
        """Why `resolve` cannot give the value `name` holds at its use although its scope assigns it: (the line of
        the statement that may rebind it, words after "`name` "), or None when no such statement is found.

        - a `nonlocal` or `global` statement of the module naming it (`_declared_nonlocal_or_global`): the
          function declaring it may rebind it before the use (breaker10 t40, t43: a nested def re-places the
          batch);
        - a binding of it inside an `if`, a loop, a `try`, a `with` or a `match` of its scope that does not also
          hold the use (`_straight_line_value` reads only the statement list of the use): which value reaches
          the use depends on the branch taken or on the iterations run (breaker10 t42, t46: `if flip: xs =
          jax.sharding.reshard(xs, P('x', None))` before the vmap; a `with` body is named too: the reading does
          not look into it);
        - else a binding the straight-line reading does not read (`_unread_form`): in a loop that also holds the
          use (the `for` target itself, or an assignment the next iteration reads), or by a form other than a plain
          `=` (a `:=`, an augmented assignment, an unpacking of a value that is no display, `with ... as`,
          `except ... as`, a `match` capture).
        The first found in source order. Pure: reads the module's tree and bindings."""
        if self._declared_nonlocal_or_global(name.id):
            stmt = next((n for n in ast.walk(self.ix.tree) if isinstance(n, (ast.Nonlocal, ast.Global))
                         and name.id in n.names), None)
            if stmt is not None:
                keyword = "nonlocal" if isinstance(stmt, ast.Nonlocal) else "global"
                owner = next((a for a in self.ix.ancestors(stmt) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
                who = f"`{owner.name}`" if owner is not None else "the module"
                return stmt.lineno, (
                    f"is named by `{keyword} {name.id}` in {who} (line {stmt.lineno}), which may rebind it before this use"
                )
        bindings = sorted(
            (b for b in scope.bindings.get(name.id, []) if b.kind is not BindingKind.PARAM),
            key=lambda b: (getattr(b.node, "lineno", 0), getattr(b.node, "col_offset", 0)),
        )
        for b in bindings:
            compound = self._branch_holding(b.node, name)
            if compound is not None:
                return compound.lineno, (
                    f"is assigned inside the `{_KEYWORDS[type(compound)]}` statement at line {compound.lineno}, so "
                    "which value reaches this use is not known (spmdfix reads only straight-line assignments)"
                )
        return next((found for b in bindings if (found := self._unread_form(b, name)) is not None), None)

    def _branch_holding(self, node: ast.AST, use: ast.Name) -> ast.AST | None:
        """The innermost compound statement (`_KEYWORDS`) of `node`'s own scope holding `node` but not `use`; None
        when every one holding `node` holds `use` too (or there is none)."""
        around_use = {id(a) for a in self._ancestors_in_scope(use)}
        return next(
            (a for a in self._ancestors_in_scope(node) if isinstance(a, tuple(_KEYWORDS)) and id(a) not in around_use),
            None,
        )

    def _unread_form(self, binding, use: ast.Name) -> tuple[int, str] | None:
        """(line, words) for a binding of `use`'s name that the straight-line reading does not read although no
        branch separates it from the use (`rebinding`'s last case); None for a plain `=` outside any loop
        holding the use."""
        node = binding.node
        up = self.ix.parent.get(id(node))
        line = getattr(node, "lineno", None) or getattr(up, "lineno", 0)
        if isinstance(up, (ast.For, ast.AsyncFor)) and up.target is node:
            return up.lineno, f"is bound by the `for` statement at line {up.lineno}, whose items spmdfix does not read"
        around_use = {id(a) for a in self._ancestors_in_scope(use)}
        loop = next((a for a in self._ancestors_in_scope(node)
                     if isinstance(a, (ast.For, ast.AsyncFor, ast.While)) and id(a) in around_use), None)
        if loop is not None:
            return loop.lineno, (
                f"is assigned inside the `{_KEYWORDS[type(loop)]}` loop at line {loop.lineno}, which also holds this "
                "use: which value reaches it depends on the iterations run"
            )
        form = _FORMS.get(type(up)) if binding.kind is BindingKind.OTHER or isinstance(up, ast.NamedExpr) else None
        if binding.kind is BindingKind.OTHER and form is None:
            form = _FORMS.get(type(node), "a binding")
        if form is None:
            return None
        return line, f"is bound on line {line} by {form}, whose value spmdfix does not read"

    def _ancestors_in_scope(self, node: ast.AST) -> list[ast.AST]:
        """The ancestors of `node` up to (not including) the function, lambda, class or module around it."""
        out = []
        for anc in self.ix.ancestors(node):
            if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)):
                break
            out.append(anc)
        return out

    def _passed(self, param) -> tuple[ast.AST, Scope] | None:
        """The argument every call passes for parameter `param` (`ModuleIndex.argument_for`, as the evaluator
        follows one; `def accumulate(fn, xs, ...)` called with a placed `xs`: fuzz seed 60297). A name bound
        more than once there is read at the call (`_straight_line_value`), so only when the function has that
        one call: two calls may pass the name after different assignments."""
        passed = self.model.argument_for(param)
        if passed is None or not isinstance(passed[0], ast.Name):
            return passed
        if self.ix.single_binding(passed[0].id, passed[1]) is not None:
            return passed
        func = self.ix.parent.get(id(param.node))
        name = getattr(func, "name", None)
        return passed if name is not None and self.ix.word_count(name) == 2 else None

    def _straight_line_value(self, name: ast.Name, scope: Scope) -> ast.AST | None:
        """The value of `name` at its use when its scope assigns it in straight-line code: the last `=` before the
        use in the same statement list (`_inner_block_value`, `_statement_in_block`). A parameter of the scope
        may be among the bindings: its value comes before every statement, so an assignment before the use
        overrides it (`def step(xs): xs = jax.sharding.reshard(xs, P('x', None)); return jax.vmap(f, ...)(xs)`
        was not read, and SPMD008's `axis_names` error silent); with none before the use, None."""
        bindings = scope.bindings.get(name.id, [])
        if not bindings or any(b.kind not in (BindingKind.ASSIGN, BindingKind.PARAM) for b in bindings):
            return None
        bindings = [b for b in bindings if b.kind is BindingKind.ASSIGN]
        if not bindings:
            return None
        inner = self._inner_block_value(name, bindings)
        if inner is not None:
            return inner
        stmt, block = self._statement_in_block(name)
        if block is None:
            return None
        position = {id(s): i for i, s in enumerate(block)}
        best = None
        for b in bindings:
            i = self._assignment_at(b.node, block, position)
            if i is None:
                return None  # assigned in a nested block or by another statement form: no single reaching value
            if i < position[id(stmt)] and (best is None or i > best[0]):
                best = (i, b.node)
        return best[1] if best is not None else None

    def _assignment_at(self, value: ast.AST, block: list, position: dict[int, int]) -> int | None:
        """The index in `block` of the `=` statement that binds `value`: its parent, or, for one element of a
        tuple assignment (`xs, ws = a, b`, whose bindings hold the elements `a` and `b`), the `=` statement of
        the block whose lines hold it (fuzz-style `xs, ws = jnp.asarray(...), ...` before `xs =
        jax.device_put(xs, ...)`); None when it is not such a statement of `block`."""
        assign = self.ix.parent.get(id(value))
        if isinstance(assign, (ast.Tuple, ast.List)):
            display = assign
            assign = self.ix.parent.get(id(display))
            unpacks = isinstance(assign, ast.Assign) and assign.value is display
            return position.get(id(assign)) if unpacks else None
        if isinstance(assign, ast.Assign):
            return position.get(id(assign))
        line = getattr(value, "lineno", None)
        if assign is not None or line is None:
            return None
        for i, stmt in enumerate(block):
            if stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno):
                unpacks = isinstance(stmt, ast.Assign) and all(isinstance(t, (ast.Tuple, ast.List)) for t in stmt.targets)
                return i if unpacks else None
        return None

    def _inner_block_value(self, name: ast.Name, bindings) -> ast.AST | None:
        """The value of `name` at a use inside a compound statement (`with`, `try`, `if`, a loop) when the last
        assignment before the use is a plain `=` in the same statement list and no other assignment of the name
        is written between the two: that value reaches the use whatever ran before the block (fuzz seed 30018:
        `xs = jax.sharding.reshard(xs, P('x', None))` in a `try:` after `jax.set_mesh(mesh)`)."""
        child: ast.AST = name
        for anc in self.ix.ancestors(name):
            if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)):
                return None  # the function's own body: `_straight_line_value`'s case
            block = next((b for f in ("body", "orelse", "finalbody")
                          if isinstance(b := getattr(anc, f, None), list) and child in b), None)
            if block is None:
                child = anc
                continue
            where = block.index(child)
            before = [b.node for b in bindings
                      if isinstance(a := self.ix.parent.get(id(b.node)), ast.Assign) and a in block[:where]]
            if not before:
                return None
            last = self.ix.parent.get(id(max(before, key=lambda n: (n.lineno, n.col_offset))))
            use = (name.lineno, name.col_offset)
            between = any((last.lineno, last.col_offset) < (b.node.lineno, b.node.col_offset) < use
                          and self.ix.parent.get(id(b.node)) is not last for b in bindings)
            return None if between else last.value
        return None

    def _statement_in_block(self, node: ast.AST) -> tuple[ast.AST | None, list | None]:
        """The statement of its function's (or the module's) own body that holds `node`, and that body. A use
        inside a `with`, `if`, loop or `try` block counts as at that compound statement: `_straight_line_value`
        takes it only when every assignment of the name sits directly in the body, so none runs inside the
        block, and the value there is the last one assigned before the compound statement (fuzz seed 23184: a
        batch placed before `with jax.set_mesh(mesh):` and passed to the vmap inside it). A class body holding
        it: None."""
        child = node
        for anc in self.ix.ancestors(node):
            body = getattr(anc, "body", None)
            if isinstance(body, list) and child in body:
                if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                    return child, body
                if isinstance(anc, ast.ClassDef):
                    return None, None
            child = anc
        return None, None

    # --- static shapes ------------------------------------------------------------------------------
    def shape(self, expr: ast.AST, scope: Scope, follow: Follow | None = None) -> tuple[int, ...] | None:
        """The shape of an array expression when it is built from literals of the module: `jnp.zeros((4, 8))`,
        `jnp.arange(32).reshape(4, 8)`, `jax.random.normal(key, (4, 8))`, `jax.device_put(x, ...)`, `x * 2.0`,
        through names; None otherwise (or past `follow.SHAPE` steps)."""
        follow = follow or Follow(SHAPE)
        if follow.spent:
            return None
        resolved = self.resolve(expr, scope)
        if resolved is None:
            return None
        expr, scope = resolved
        if self._is_sequence(expr, scope):
            return self._sequence_shape(expr, scope, follow.deeper())
        if isinstance(expr, ast.BinOp):
            left, right = self._is_number(expr.left, scope), self._is_number(expr.right, scope)
            if left and not right:
                return self.shape(expr.right, scope, follow.deeper())
            if right and not left:
                return self.shape(expr.left, scope, follow.deeper())
            return None
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        qname = self.ix.qualname(func, scope) or ""
        last = qname.rsplit(".", 1)[-1]
        if qname.rsplit(".", 1)[0] + "." in _ARRAY_MODULES or qname == "jax.device_put":
            if last in _FILLED:
                return self._shape_value(argument(expr, 0, "shape"), scope)
            if last == "arange" and len(expr.args) in (1, 2) and not expr.keywords:
                ends = [self.int_expr(a, scope) for a in expr.args]
                if None in ends:
                    return None
                # an empty range is empty, not negative (`arange(-3)`, `arange(6, 2)` are (0,))
                return (max(0, ends[0]),) if len(ends) == 1 else (max(0, ends[1] - ends[0]),)
            if last == "linspace":
                return self._linspace(expr, scope)
            if last == "reshape":
                base = self.shape(argument(expr, 0, "a"), scope, follow.deeper()) if argument(expr, 0, "a") else None
                return self._reshaped(base, [argument(expr, 1, "shape")], scope)
            if last == "device_put" and expr.args and self._is_sequence(expr.args[0], scope):
                return None  # a list or tuple is a pytree: device_put places each item, it builds no array
            if last in _SAME_SHAPE and expr.args:
                base = self.shape(expr.args[0], scope, follow.deeper())
                return self._with_ndmin(base, argument(expr, 4, "ndmin"), scope) if last == "array" else base
            return None
        if qname.startswith("jax.random.") and last in _RANDOM:
            return self._shape_value(argument(expr, _RANDOM[last], "shape"), scope)
        if qname == "" and isinstance(func, ast.Attribute):
            if func.attr == "reshape" and expr.args:  # (`reshape(shape=...)`: not read)
                base = self.shape(func.value, scope, follow.deeper())
                return self._reshaped(base, expr.args, scope)
            if func.attr == "astype":
                return self.shape(func.value, scope, follow.deeper())
        return None

    def _linspace(self, expr: ast.Call, scope: Scope) -> tuple[int, ...] | None:
        """The shape of `linspace(start, stop, num, ...)`: (num,) when `start` and `stop` are scalars (`_scalar`)
        and no `retstep` is asked; None otherwise. Array endpoints add their own dimensions, placed by `axis`:
        `np.linspace(np.zeros(6), np.ones(6), 8, axis=1)` is (6, 8), read (8,) before, and a SAFE rename to a
        size-4 axis then raised `not evenly divisible` (safety/trials/breaker14 a02, a04)."""
        start, stop, retstep = argument(expr, 0, "start"), argument(expr, 1, "stop"), argument(expr, 4, "retstep")
        if start is None or stop is None or not (self._scalar(start, scope) and self._scalar(stop, scope)):
            return None
        if retstep is not None and not (isinstance(retstep, ast.Constant) and retstep.value is False):
            return None  # (array, step): no array shape
        num = argument(expr, 2, "num")
        n = 50 if num is None else self.int_expr(num, scope)
        return (n,) if n is not None else None

    def _scalar(self, expr: ast.AST, scope: Scope, follow: Follow | None = None) -> bool:
        """Whether `expr` is a Python number where it is written: a number literal (through names bound once),
        `+`/`-` of one, arithmetic on them, or a number constant of numpy, jax.numpy or math (`jnp.pi`,
        `math.tau`). Anything else (an array, a call) is not known to be one."""
        follow = follow or Follow(INTEGER)
        if follow.spent:
            return False
        if self._is_number(expr, scope):
            return True
        if isinstance(expr, (ast.Name, ast.Attribute)) and self.ix.qualname(expr, scope) in _NUMBER_CONSTANTS:
            return True
        resolved = self.resolve(expr, scope)
        if resolved is None:
            return False
        expr, scope = resolved
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
            return self._scalar(expr.operand, scope, follow.deeper())
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, _SCALAR_OPERATORS):
            return self._scalar(expr.left, scope, follow.deeper()) and self._scalar(expr.right, scope, follow.deeper())
        return isinstance(expr, (ast.Name, ast.Attribute)) and self.ix.qualname(expr, scope) in _NUMBER_CONSTANTS

    def _with_ndmin(self, base: tuple[int, ...] | None, ndmin: ast.AST | None, scope: Scope) -> tuple[int, ...] | None:
        """The shape `array(x, ndmin=n)` gives for `x` of shape `base`: ones prepended up to rank n (numpy's and
        jax.numpy's rule); `base` itself without `ndmin`; None when either is not known. `np.array(np.ones(8),
        ndmin=2)` is (1, 8), read (8,) before: a SAFE rename to a size-8 axis raised (breaker14 a03)."""
        if ndmin is None or base is None:
            return base
        n = self.int_expr(ndmin, scope)
        if n is None:
            return None
        return (1,) * max(0, n - len(base)) + base

    def _is_sequence(self, expr: ast.AST, scope: Scope, follow: Follow | None = None) -> bool:
        """Whether `expr` is a Python sequence where it is written (through names): a list or tuple display or
        comprehension, or `+` / `*` with one (`[row] * 6`, `2 * (1.0, 2.0)`, `a + [3.0]`), where `*` repeats
        and `+` concatenates instead of computing elementwise. False when not known to be one."""
        follow = follow or Follow(SHAPE)
        if follow.spent:
            return False
        resolved = self.resolve(expr, scope)
        if resolved is None:
            return False
        expr, scope = resolved
        if isinstance(expr, (ast.List, ast.Tuple, ast.ListComp)):
            return True
        return isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Mult)) and (
            self._is_sequence(expr.left, scope, follow.deeper()) or self._is_sequence(expr.right, scope, follow.deeper())
        )

    def _sequence_shape(self, expr: ast.AST, scope: Scope, follow: Follow) -> tuple[int, ...] | None:
        """The shape `np.array` gives a Python sequence of numbers (through names): a (nested) display, `[1.0,
        2.0]` (2,), `[[1, 2], [3, 4]]` (2, 2); `seq * n` or `n * seq` with n >= 1 repeats the outer dimension
        (`[[0.0] * 8] * 6` is (6, 8), read (1, 8) before: shapes16); `a + b` concatenates it when the inner
        dimensions agree. None when ragged, empty, holding anything else, repeated by a number not known or
        below 1 (an empty list loses its inner dimensions), or past `follow`."""
        if follow.spent:
            return None
        resolved = self.resolve(expr, scope)
        if resolved is None:
            return None
        expr, scope = resolved
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
            left_seq = self._is_sequence(expr.left, scope, follow.deeper())
            seq, count = (expr.left, expr.right) if left_seq else (expr.right, expr.left)
            n = self.int_expr(count, scope)
            inner = self._sequence_shape(seq, scope, follow.deeper())
            if n is None or n < 1 or inner is None:
                return None
            return (inner[0] * n, *inner[1:])
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            a = self._sequence_shape(expr.left, scope, follow.deeper())
            b = self._sequence_shape(expr.right, scope, follow.deeper())
            if a is None or b is None or a[1:] != b[1:]:
                return None
            return (a[0] + b[0], *a[1:])
        if not isinstance(expr, (ast.List, ast.Tuple)) or not expr.elts:
            return None
        if all(self._is_number(e, scope) for e in expr.elts):
            return (len(expr.elts),)
        inner = {self._sequence_shape(e, scope, follow.deeper()) if self._is_sequence(e, scope) else None
                 for e in expr.elts}
        if len(inner) != 1 or None in inner:
            return None
        return (len(expr.elts), *inner.pop())

    def _reshaped(self, base, args, scope) -> tuple[int, ...] | None:
        if len(args) == 1 and args[0] is not None:
            dims = self._shape_value(args[0], scope, allow_minus=True)
        else:
            dims = tuple(self.int_expr(a, scope) for a in args)
            dims = None if None in dims else dims
        if dims is None:
            return None
        if dims.count(-1) == 1:
            if base is None:
                return None
            total, known = 1, 1
            for d in base:
                total *= d
            for d in dims:
                known *= d if d != -1 else 1
            if known == 0 or total % known:
                return None
            dims = tuple(total // known if d == -1 else d for d in dims)
        return dims if all(d >= 0 for d in dims) else None

    def _shape_value(self, expr, scope, allow_minus: bool = False) -> tuple[int, ...] | None:
        if expr is None:
            return None
        single = self.int_expr(expr, scope)
        if single is not None:
            return (single,) if single >= 0 or allow_minus else None
        resolved = self.resolve(expr, scope)
        if resolved is None or not isinstance(resolved[0], (ast.Tuple, ast.List)):
            return None
        dims = tuple(self.int_expr(e, resolved[1]) for e in resolved[0].elts)
        if None in dims or (not allow_minus and any(d < 0 for d in dims)):
            return None
        return dims

    def int_expr(self, expr: ast.AST, scope: Scope, follow: Follow | None = None) -> int | None:
        """An integer built from literals and module constants with `+ - * //`; None otherwise (or past
        `follow.INTEGER` steps)."""
        follow = follow or Follow(INTEGER)
        if follow.spent:
            return None
        resolved = self.resolve(expr, scope)
        if resolved is None:
            return None
        expr, scope = resolved
        if isinstance(expr, ast.Constant) and type(expr.value) is int:
            return expr.value
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
            inner = self.int_expr(expr.operand, scope, follow.deeper())
            return -inner if inner is not None else None
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
            a, b = self.int_expr(expr.left, scope, follow.deeper()), self.int_expr(expr.right, scope, follow.deeper())
            if a is None or b is None:
                return None
            if isinstance(expr.op, ast.FloorDiv):
                return a // b if b else None
            return a + b if isinstance(expr.op, ast.Add) else a - b if isinstance(expr.op, ast.Sub) else a * b
        return None

    def _is_number(self, expr: ast.AST, scope: Scope) -> bool:
        resolved = self.resolve(expr, scope)
        return resolved is not None and isinstance(resolved[0], ast.Constant) and type(resolved[0].value) in (int, float)
