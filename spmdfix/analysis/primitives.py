"""Which primitives a shard_map body applies, as far as hazard H2 (SPMD007) needs to know.

Measured with jax 0.10.2 (docs/rules.md, SPMD007): an inner `jax.vmap` between a vmap with spmd_axis_name and a
shard_map (or inside its body) fails under check_vma=True with a `pvary` error as soon as the body applies a
*binary* primitive (`v + v`, `v * 2.0`, `jnp.maximum(v, 0)`, relu, `v ** 0.5`); bodies made only of unary
primitives (`jnp.sin`, `jnp.exp`, unary minus, `v ** 2` with an integer literal, `.astype(...)`) run and match,
and so do the cumulative ops of `jaxapi.CUMULATIVE_NAMES` (`jnp.cumsum(v, axis=-1)`, `jax.lax.cummax(v, axis=0)`;
safety/measurements/spmd007_cumulative_ops.py), and slices with static bounds (`jaxapi.STATIC_SLICE_NAMES`,
`v[0:n]`: safety/measurements/spmd007_lax_map_body_ops.py). A `jax.lax.map(g, xs, batch_size=k)` between the
spmd vmap and the shard_map (a vmap over chunks) fails and runs for the same bodies as an inner `jax.vmap`
(same measurement: any `k`, a remainder or not; only its message differs). Two more kinds of step were measured
to run there (safety/measurements/spmd007_body_collectives_constants.py): a product with a module-level constant
(`jaxapi.CONSTANT_PRODUCT_NAMES`, `b @ M`), and `psum` / `pmax` / `pmin` over a literal axis
(`jaxapi.H2_FREE_COLLECTIVES`) as long as that axis is not an spmd axis of the vmap: `UnaryCheck.unary_over`
returns the axes for the caller to compare (`analysis.hazards.h2_at`). A later measurement
(safety/measurements/spmd007_gather_permute_index_local_constants.py) added `all_gather`, `ppermute` and
`psum_scatter` over an axis the block is split on (`jaxapi.H2_SPLIT_AXIS_COLLECTIVES`: `UnaryCheck.split_axes`
returns those axes, which the caller checks against the specs), and constants bound inside a function or written
inline, not only at module level (`b @ M` with `M = np.linspace(...)` in the function applying the shard_map or in
the body, `b @ jnp.eye(8, dtype=b.dtype)`). `axis_index` combined with the block fails there: not a unary step.
A `+`, `-`, `*`, `/` step between a unary step and a scalar a unary step reduces to (`.sum()`, `.max()`, `.min()`,
`jnp.sum`/`max`/`min`), bare or under `psum` / `pmax` / `pmin` (`b + jax.lax.psum(b.sum(), 'y')`), counts as
unary (`UnaryCheck._reduced_scalar`; safety/measurements/spmd007_binary_with_reduced_collective.py).
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.scopes import ModuleIndex


class UnaryCheck:
    """Decides whether a body applies unary primitives only. Pure: an AST function in, a bool out."""

    def __init__(self, index: ModuleIndex, bound: int = 0) -> None:
        self.ix = index
        # how many leading parameters of the body are bound before the shard_map passes its operands (a bound
        # method's `self`: `analysis.method_body`): not blocks, so not unary operands
        self.bound = bound
        # While `unary_over` runs: the axes of the collectives met so far (None: a collective is not a unary step),
        # and among them those of the collectives that run only over an axis the block is split on
        self._axes: set[str] | None = None
        self._split: set[str] = set()
        self.split_axes: frozenset[str] = frozenset()
        # While `unary_beside` runs: the free names met as an operand of a binary step beside a unary one
        self._beside: set[str] | None = None

    def unary_over(self, func: ast.AST) -> frozenset[str] | None:
        """The axes of the collectives a body applies when it is made of unary steps and measured collectives
        (`jaxapi.H2_FREE_COLLECTIVES`, at the body's own level: not inside an inner vmapped lambda); None when
        it is not. Empty for a body of unary steps only (`unary_only`). Such a body runs under H2's conditions
        when none of those axes is an spmd axis of the vmap (the caller's to check). Afterwards `split_axes` holds
        the axes of the `jaxapi.H2_SPLIT_AXIS_COLLECTIVES` among them, which run only when every in_spec and
        out_spec of the shard_map splits the block on them (also the caller's to check)."""
        self._axes, self._split = set(), set()
        try:
            unary = self.unary_only(func)
            self.split_axes = frozenset(self._split) if unary else frozenset()
            return frozenset(self._axes) if unary else None
        finally:
            self._axes, self._split = None, set()

    def unary_beside(self, func: ast.AST) -> frozenset[str] | None:
        """The names of a body made of unary steps and of `+`, `-`, `*`, `/` steps whose one operand is a value
        local to a function around the body (`_local_value`) and the other a unary step (`jnp.cumsum(b) * m`,
        `b * m * m`, `b - m`); None when it is not of that shape. Measured
        (safety/measurements/spmd007_lax_map_beside_batched_capture.py): under a `jax.lax.map` with a `batch_size`
        that divides the mapped length, such a body runs when every one of those values is batched by the spmd
        vmap, while `b * 2.0`, `b * b`, `(b + 1.0) * m` and `b * (m + 1.0)` fail (`analysis.hazards.beside_locals`)."""
        self._beside = set()
        try:
            return frozenset(self._beside) if self.unary_only(func) else None
        finally:
            self._beside = None

    def unary_only(self, func: ast.AST) -> bool:
        """True for a `lambda` or `def` (assignments to names and one final return) of unary steps only."""
        scope = self.ix.own_scope(func) or self.ix.scope_at(func)
        args = func.args
        if args.vararg or args.kwarg or args.kwonlyargs:
            return False
        names = {a.arg for a in [*args.posonlyargs, *args.args][self.bound:]}
        if isinstance(func, ast.Lambda):
            return self._unary(func.body, names, scope)
        for i, stmt in enumerate(func.body):
            if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue
            if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
                if all(self._constant_name(t, names, scope) for t in stmt.targets):
                    continue  # `M = np.linspace(...)`: a constant the body makes, no value of the body
                if not self._unary(stmt.value, names, scope):
                    return False
                names |= {t.id for t in stmt.targets}
            elif isinstance(stmt, ast.Return) and stmt.value is not None and i == len(func.body) - 1:
                return self._unary(stmt.value, names, scope)
            else:
                return False
        return False

    def _unary(self, expr: ast.AST, names: set[str], scope) -> bool:
        if isinstance(expr, ast.Name):
            return expr.id in names
        if isinstance(expr, ast.UnaryOp):
            return isinstance(expr.op, (ast.USub, ast.UAdd)) and self._unary(expr.operand, names, scope)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.MatMult):
            return any(
                self._constant_operand(const, names, scope) and self._unary(other, names, scope)
                for const, other in ((expr.right, expr.left), (expr.left, expr.right))
            )
        if isinstance(expr, ast.BinOp) and self._beside is not None and isinstance(expr.op, _BESIDE_OPS):
            for free, other in ((expr.right, expr.left), (expr.left, expr.right)):
                if self._local_value(free, names, scope) and self._unary(other, names, scope):
                    self._beside.add(free.id)
                    return True
        # the block beside a scalar it reduces to (`b + psum(b.sum(), 'y')`, `b.sum() * b`): measured to run
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, _BESIDE_OPS) and any(
            self._reduced_scalar(scalar, names, scope) and self._unary(other, names, scope)
            for scalar, other in ((expr.right, expr.left), (expr.left, expr.right))
        ):
            return True
        if isinstance(expr, ast.BinOp):
            exponent = expr.right
            return (
                isinstance(expr.op, ast.Pow)
                and isinstance(exponent, ast.Constant)
                and type(exponent.value) is int
                and self._unary(expr.left, names, scope)
            )
        if isinstance(expr, ast.Call) and self._cumulative(expr, scope):
            return self._unary(expr.args[0], names, scope)
        if isinstance(expr, ast.Call) and self._axes is not None and (axes := self._collective(expr, scope)):
            self._axes |= axes
            return self._unary(expr.args[0], names, scope)
        if isinstance(expr, ast.Call) and self._axes is not None and (axis := self._split_collective(expr, scope)):
            self._axes.add(axis)
            self._split.add(axis)
            return self._unary(expr.args[0], names, scope)
        if isinstance(expr, ast.Call) and (operand := self._constant_product(expr, names, scope)) is not None:
            return self._unary(operand, names, scope)
        if isinstance(expr, ast.Call) and self._static_slice(expr, names, scope):
            return self._unary(expr.args[0], names, scope)
        if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Slice):
            bounds = (expr.slice.lower, expr.slice.upper, expr.slice.step)
            return all(b is None or _static_int(b, names) for b in bounds) and self._unary(expr.value, names, scope)
        if isinstance(expr, ast.Call) and not expr.keywords:
            if isinstance(expr.func, ast.Attribute) and expr.func.attr in jaxapi.UNARY_METHODS:
                if self.ix.qualname(expr.func, scope) is None and len(expr.args) == 1:
                    dtype = expr.args[0]
                    return self._unary(expr.func.value, names, scope) and self.ix.qualname(dtype, scope) is not None
                return False
            if len(expr.args) == 1 and self.ix.qualname(expr.func, scope) in jaxapi.UNARY_NAMES:
                return self._unary(expr.args[0], names, scope)
            if len(expr.args) == 1 and self.vmap_of_unary(expr.func, scope):
                return self._unary(expr.args[0], names, scope)
        return False

    def _reduced_scalar(self, expr: ast.AST, names: set[str], scope) -> bool:
        """A full reduction of a unary step of the block to a scalar by a measured reduction (`v.sum()`, `v.max()`,
        `v.min()` with no argument; `jnp.sum(v)`, `jnp.max(v)`, `jnp.min(v)` with one), or such a scalar under a
        measured collective over literal axes (`jax.lax.psum(v.sum(), 'y')`: `_collective`, its axes recorded for
        the caller, only while `unary_over` runs). Measured (safety/measurements/spmd007_binary_with_reduced_collective.py;
        new-user trial breaker4, p34): under an inner `jax.vmap` or a `jax.lax.map` with a `batch_size`, check_vma
        on, a `+`, `-`, `*` or `/` step between the block (or a unary step of it) and such a scalar runs and
        matches (`b + psum(b.sum(), 'model')`, `b * psum(b.sum(), 'model')`, `b + pmax(b.max(), 'model')`,
        `jnp.sin(b) + psum(jnp.sin(b).sum(), 'model')`, `b + b.sum()`, `b.sum() * b`, `b + jnp.max(b)`), while
        `b + b`, `b + psum(b, 'model')`, `b + b.mean()`, `b - pmean(b.mean(), 'model')` and any step with a
        constant (`b + psum(b.sum(), 'model') * 2.0`, `b + psum(b.sum() * 2.0, 'model')`) fail."""
        if not isinstance(expr, ast.Call) or expr.keywords:
            return False
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr in _REDUCTION_METHODS and not expr.args:
            return self.ix.qualname(func, scope) is None and self._unary(func.value, names, scope)
        if len(expr.args) != 1:
            axes = self._collective(expr, scope) if self._axes is not None else None
            if axes and self._reduced_scalar(expr.args[0], names, scope):
                self._axes |= axes
                return True
            return False
        return self.ix.qualname(func, scope) in _REDUCTION_NAMES and self._unary(expr.args[0], names, scope)

    def _cumulative(self, call: ast.Call, scope) -> bool:
        """`jnp.cumsum(v)`, `jnp.cumsum(v, -1)`, `jnp.cumsum(v, axis=-1)`, `jax.lax.cummax(v, axis=0,
        reverse=True)`: a measured cumulative op given the array and integer/boolean literals only (a `dtype`
        or any other argument is not measured)."""
        if self.ix.qualname(call.func, scope) not in jaxapi.CUMULATIVE_NAMES or not 1 <= len(call.args) <= 2:
            return False
        if len(call.args) == 2 and not _int_literal(call.args[1]):
            return False
        for kw in call.keywords:
            if kw.arg == "axis" and _int_literal(kw.value) and len(call.args) == 1:
                continue
            if kw.arg == "reverse" and isinstance(kw.value, ast.Constant) and type(kw.value.value) is bool:
                continue
            return False
        return True

    def _collective(self, call: ast.Call, scope) -> set[str] | None:
        """`jax.lax.psum(v, 'y')`, `jax.lax.psum(v, ('y',))`, `jax.lax.pmax(v, ('y', 'z'))`, `jax.lax.pmax(v,
        AXES)`: a measured collective (`jaxapi.H2_FREE_COLLECTIVES`) given the value and its axes as string
        literals (or names bound once to one), a tuple display of them or a name bound once to one, positionally,
        nothing else: the axes; None for any other call."""
        qname = self.ix.qualname(call.func, scope)
        if qname not in jaxapi.H2_FREE_COLLECTIVES or len(call.args) != 2 or call.keywords:
            return None
        axis = call.args[1]
        if (name := self._axis_string(axis, scope)) is not None:
            return {name}
        if isinstance(axis, ast.Name):
            # a name bound once to a tuple display (`AXES = ('y', 'z')`: the same tuple reaches JAX)
            binding = self.ix.single_binding(axis.id, scope)
            if binding is None or binding.kind is not BindingKind.ASSIGN or not isinstance(binding.node, ast.Tuple):
                return None
            scope, axis = binding.scope, binding.node
        if not (isinstance(axis, ast.Tuple) and axis.elts):
            return None
        # one axis in a tuple (`('y',)`) runs as the axis (safety/measurements/spmd007_tuple_collective_axes.py)
        if len(axis.elts) > 1 and not jaxapi.H2_FREE_COLLECTIVES[qname]:
            return None
        names = [self._axis_string(e, scope) for e in axis.elts]
        return set(names) if None not in names else None

    def _split_collective(self, call: ast.Call, scope) -> str | None:
        """`jax.lax.all_gather(v, 'y')`, `all_gather(v, 'y', tiled=True)`, `jax.lax.ppermute(v, 'y', [(0, 1), (1,
        0)])`, `jax.lax.psum_scatter(jax.lax.all_gather(v, 'y', tiled=True), 'y', tiled=True)`: a collective of `jaxapi.H2_SPLIT_AXIS_COLLECTIVES` given
        the value and one axis (a string literal or a name bound once to one) positionally, and only the measured
        keywords with literal values (`ppermute`'s permutation: a literal list of pairs of int literals, the third
        argument or `perm=`): the axis; None for any other call."""
        qname = self.ix.qualname(call.func, scope)
        keywords = jaxapi.H2_SPLIT_AXIS_COLLECTIVES.get(qname or "")
        if keywords is None or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        args = list(call.args)
        if qname == "jax.lax.ppermute":
            perm = [k.value for k in call.keywords if k.arg == "perm"]
            if len(args) == 3 and not call.keywords:
                perm = [args.pop()]
            if len(args) != 2 or len(perm) != 1 or len(call.keywords) > 1 or not _int_pairs(perm[0]):
                return None
        elif len(args) != 2:
            return None
        else:
            if qname == "jax.lax.psum_scatter" and not (
                any(k.arg == "tiled" for k in call.keywords)
                and isinstance(args[0], ast.Call)
                and self.ix.qualname(args[0].func, scope) == "jax.lax.all_gather"
            ):
                return None  # measured with `tiled=True`, scattering an `all_gather` only
            for kw in call.keywords:
                allowed = keywords.get(kw.arg or "")
                if allowed is None or not (isinstance(kw.value, ast.Constant) and kw.value.value in allowed):
                    return None
                if type(kw.value.value) is not bool:
                    return None
        return self._axis_string(args[1], scope)

    def _axis_string(self, node: ast.AST, scope) -> str | None:
        """A string literal, or a name bound once to one (`AXIS = 'y'`: the same value reaches JAX)."""
        if isinstance(node, ast.Name):
            binding = self.ix.single_binding(node.id, scope)
            if binding is None or binding.kind is not BindingKind.ASSIGN:
                return None
            node = binding.node
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    def _constant_product(self, call: ast.Call, names: set[str], scope) -> ast.AST | None:
        """`jnp.dot(v, M)`, `jnp.dot(M, v)`, `jnp.matmul(v, M)`, `jnp.einsum('i,ij->j', v, M)`: a measured product
        (`jaxapi.CONSTANT_PRODUCT_NAMES`) with a module-level constant `M` at a measured position, no keywords:
        the other operand (the body's value); None for any other call."""
        positions = jaxapi.CONSTANT_PRODUCT_NAMES.get(self.ix.qualname(call.func, scope))
        if positions is None or call.keywords:
            return None
        args = call.args
        if positions == (2,):  # einsum: a subscripts string literal, the value, the constant
            if len(args) != 3 or not (isinstance(args[0], ast.Constant) and isinstance(args[0].value, str)):
                return None
            return args[1] if self._constant_operand(args[2], names, scope) else None
        if len(args) != 2:
            return None
        for at in positions:
            if self._constant_operand(args[at], names, scope):
                return args[1 - at]
        return None

    def _local_value(self, node: ast.AST, names: set[str], scope) -> bool:
        """A name the body reads from a function around it (bound once there, by an assignment or as a parameter),
        not a constant (`_constant_name`): a value a vmap on the way may batch (`unary_beside`)."""
        if not isinstance(node, ast.Name) or node.id in names or self._constant_name(node, names, scope):
            return False
        binding = self.ix.single_binding(node.id, scope)
        return (
            binding is not None and binding.kind in (BindingKind.ASSIGN, BindingKind.PARAM)
            and self.ix.enclosing_function(binding.node) is not None
        )

    def _constant_operand(self, node: ast.AST, names: set[str], scope) -> bool:
        """A constant operand of a product: a name bound to a constant (`_constant_name`), or a constant
        expression written inline (`jnp.eye(8, dtype=b.dtype)`; measured: spmd007_gather_permute_index_local_constants.py)."""
        if isinstance(node, ast.Name):
            return self._constant_name(node, names, scope)
        return isinstance(node, ast.Call) and self._constant_expr(node, 6, scope)

    def _constant_name(self, node: ast.AST, names: set[str], scope) -> bool:
        """A name bound once, at module level or in a function (the body included), to a constant expression
        (`_constant_expr`): its value is made of literals, so no vmap batches it (measured at module level:
        `np.linspace(...).reshape(8, 8)`, an `np.array` literal, `jnp.ones(...)`; in the spmd-vmapped function, in
        the function applying the shard_map under the inner vmap and in the body:
        safety/measurements/spmd007_gather_permute_index_local_constants.py). Not one of the body's values."""
        if not isinstance(node, ast.Name) or node.id in names:
            return False
        binding = self.ix.single_binding(node.id, scope)
        return (
            binding is not None and binding.kind is BindingKind.ASSIGN
            and self._constant_expr(binding.node, 6, self.ix.scope_at(binding.node))
        )

    def _constant_expr(self, expr: ast.AST, depth: int, scope) -> bool:
        """Literals (numbers, strings, tuples and lists of them), calls of `numpy.*` / `jax.numpy.*` (the
        constructors, dtypes) with constant arguments, `.reshape(...)` / `.astype(...)` of a constant, arithmetic
        of constants, a value's `.dtype` (static), and other names bound to constants (read from `scope`)."""
        if depth == 0:
            return False
        if isinstance(expr, ast.Constant):
            return type(expr.value) in (int, float, bool, str) or expr.value is None
        if isinstance(expr, (ast.Tuple, ast.List)):
            return all(self._constant_expr(e, depth - 1, scope) for e in expr.elts)
        if isinstance(expr, ast.UnaryOp):
            return isinstance(expr.op, (ast.USub, ast.UAdd)) and self._constant_expr(expr.operand, depth - 1, scope)
        if isinstance(expr, ast.BinOp):
            return self._constant_expr(expr.left, depth - 1, scope) and self._constant_expr(expr.right, depth - 1, scope)
        if isinstance(expr, (ast.Name, ast.Attribute)) and _numpy_name(self.ix.qualname(expr, scope)):
            return True  # `np.float32`, `jnp.pi`
        if isinstance(expr, ast.Attribute) and expr.attr == "dtype" and isinstance(expr.value, ast.Name):
            return True  # `b.dtype`: a value's dtype is static
        if isinstance(expr, ast.Name):
            return self._constant_name(expr, set(), scope)
        if isinstance(expr, ast.Call):
            arguments = [*expr.args, *(k.value for k in expr.keywords)]
            if any(isinstance(a, ast.Starred) for a in expr.args) or any(k.arg is None for k in expr.keywords):
                return False
            if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("reshape", "astype"):
                target = expr.func.value
            elif _numpy_name(self.ix.qualname(expr.func, scope)):
                target = None
            else:
                return False
            return (target is None or self._constant_expr(target, depth - 1, scope)) and all(
                self._constant_expr(a, depth - 1, scope) for a in arguments
            )
        return False

    def _static_slice(self, call: ast.Call, names: set[str], scope) -> bool:
        """`jax.lax.dynamic_slice_in_dim(v, 0, n, axis=-1)`: a measured slice (`jaxapi.STATIC_SLICE_NAMES`) with an
        integer literal start, a static size (an integer literal, or a name that is not one of the body's values)
        and an integer literal `axis` (keyword or fourth argument). A start read from a value is not measured."""
        if self.ix.qualname(call.func, scope) not in jaxapi.STATIC_SLICE_NAMES or not 3 <= len(call.args) <= 4:
            return False
        _, start, size, *axis = call.args
        if not _int_literal(start) or not _static_int(size, names) or not all(_int_literal(a) for a in axis):
            return False
        return all(kw.arg == "axis" and not axis and _int_literal(kw.value) for kw in call.keywords)

    def vmap_of_unary(self, func: ast.AST, scope) -> bool:
        """True for `jax.vmap(<lambda of unary steps>)` with default axes: mapping a unary function applies
        the same unary primitives (measured: safety/measurements/spmd007_inner_vmap_unary.py, fuzz seed 5842).
        A collective inside the lambda is not measured there: not a unary step."""
        if not (
            isinstance(func, ast.Call)
            and not func.keywords
            and len(func.args) == 1
            and isinstance(func.args[0], ast.Lambda)
            and self.ix.qualname(func.func, scope) == "jax.vmap"
        ):
            return False
        axes, self._axes = self._axes, None
        try:
            return self.unary_only(func.args[0])
        finally:
            self._axes = axes


# the binary steps measured beside a batched capture (`unary_beside`)
_BESIDE_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div)
# the full reductions to a scalar measured beside the block (`UnaryCheck._reduced_scalar`)
_REDUCTION_METHODS = frozenset({"sum", "max", "min"})
_REDUCTION_NAMES = frozenset({"jax.numpy.sum", "jax.numpy.max", "jax.numpy.min"})


def _int_literal(node: ast.AST) -> bool:
    """An integer literal, possibly negated (`-1`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def _int_pairs(node: ast.AST) -> bool:
    """A list or tuple display of pairs of int literals (`[(0, 1), (1, 0)]`): a permutation written out."""
    return isinstance(node, (ast.List, ast.Tuple)) and all(
        isinstance(p, ast.Tuple) and len(p.elts) == 2 and all(_int_literal(e) for e in p.elts) for p in node.elts
    )


def _static_int(node: ast.AST, names: set[str]) -> bool:
    """An integer literal, or a name other than the body's own values (`names`): a slice bound or size JAX needs
    static (a traced one raises whatever the vmaps), such as `n = x.shape[-1] // 2` read from the enclosing scope."""
    return _int_literal(node) or (isinstance(node, ast.Name) and node.id not in names)


def _numpy_name(qname: str | None) -> bool:
    """A name of numpy or jax.numpy (`numpy.linspace`, `jax.numpy.ones`, `numpy.float32`)."""
    return qname is not None and qname.startswith(("numpy.", "jax.numpy."))
