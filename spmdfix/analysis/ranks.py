"""The rank of a shard_map body's operands where the source shows it, for SPMD003's broadcast rule.

An unbatched array W closed over by an all-replicated body under an spmd vmap with `check_vma=True` fails with
`AssertionError: ManualAxisType(...)` when the body combines it with a value of the same rank or of a lower
rank; when every use of W is an operand of arithmetic whose other operand has a *higher* rank (jnp broadcasting
then adds W's leading dimensions: `b * W` with b of rank 2 and W of rank 1), the program runs and matches,
eager and under jit (measured on jax 0.10.2: safety/measurements/capture_array_broadcast.py). Same rank with
size-1 dimensions (`(8, 8)` and `(1, 8)`) fails too.

So the rule needs the rank of the body's operands, which the body does not state: it is followed from the
calls of the vmapped function (each argument's shape where it is built from literals: `jnp.ones((4, 8))`,
`np.arange(64).reshape(8, 8)`, `jnp.linspace(0, 1, 8)`; `shapes.StaticShapes.shape`), minus the mapped
dimension, through the calls on the way to the shard_map (an argument passed on as a plain name, rebound at
most by `with_sharding_constraint`), to the body's parameters (shard_map keeps an operand's rank). Anything
else (an inner `jax.vmap`, a `jax.jit` or other wrapper on the way, keyword or `*args` arguments, a call not
followed, calls that disagree) leaves the rank unknown, and an unknown rank keeps the finding.

A body parameter may receive a pytree: a dict, tuple or list literal written at the shard_map's application
(`shard_map(body, ...)({'a': x, 'b': w})`, `(x, w)`, `[x, w]`, nested), whose entries are names of known rank.
Such a parameter gets a structure (`Rank`: a dict from each literal key or index to the entry's rank), and a
read of one of its leaves by constant subscripts (`d['a']`, `t[0]`, `t[-2]`, `d['a'][0]`) has that leaf's rank:
shard_map keeps the structure and each leaf's rank, and the broadcast rule holds leaf by leaf (measured on jax
0.10.2: safety/measurements/capture_array_broadcast_pytree.py, fuzz seed 230207). The structure is trusted only
when every read of the parameter in the body is such a subscript (a store into it, a method call or passing
it on could change what it holds); a key the literal does not hold, a `**` entry or a non-literal key leaves
the rank unknown. The literal may also be bound once to a name read only at the application, or be the one
return of a helper of the module called with the operands (`structure_of`; measured:
safety/measurements/capture_array_broadcast_pytree_built.py). A pytree from anything else is an `UnreadOperand`:
when the array meets only its leaves (or operands of known higher rank), the finding would be a guess, and an
SPMD910 record takes its place (`pytree_unread`, issue 22: never a false positive).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from spmdfix import jaxapi
from spmdfix.analysis.bindings import FUNCTION_NODES, BindingKind
from spmdfix.analysis.calls import single_return
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.shapes import StaticShapes
from spmdfix.analysis.vmap_calls import VmapCalls

if TYPE_CHECKING:
    from spmdfix.analysis.reach import ReachedSite

# Binary operators measured to broadcast a lower-rank unbatched array without the ManualAxisType failure.
_BROADCASTING_OPS = (ast.Mult, ast.Add, ast.Sub, ast.Div)
# Slices that keep their operand's rank (a body parameter rebound by one keeps the rank `_rank` reads).
_RANK_KEEPING_NAMES = frozenset({"jax.lax.dynamic_slice_in_dim", "jax.lax.dynamic_slice"})

class UnreadOperand:
    """The operand a body parameter receives at the shard_map's application when it is neither a name of known
    rank nor a pytree `RankAnalysis.structure_of` reads (a helper of another module, a call not followed, a name
    bound otherwise): the rank of its leaves is not known (`RankAnalysis.pytree_unread`). `expr`: the argument."""

    __slots__ = ("expr",)

    def __init__(self, expr: ast.AST) -> None:
        self.expr = expr


# An operand's rank: a number for an array; for a pytree literal, its entries' ranks by key (dict) or index
# (tuple, list; negative indices too), None for an entry of unknown rank; an `UnreadOperand` at the application
# for an operand whose structure is not read.
Rank = int | dict | UnreadOperand


def _loads(body: ast.AST, name: str) -> list[ast.Name]:
    """The reads of `name` in a shard_map body (a lambda's expression, or a def)."""
    root = body.body if isinstance(body, ast.Lambda) else body
    return [n for n in ast.walk(root) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]


def _positional(func: ast.AST) -> list[str]:
    return [a.arg for a in [*func.args.posonlyargs, *func.args.args]]


class RankAnalysis:
    """Ranks of shard_map body operands and the broadcast check, for one module (pure). Input: the module's
    `ModuleModel`, and its `StaticShapes` (which reads the static shapes of arguments)."""

    def __init__(self, model: ModuleModel, shapes: StaticShapes) -> None:
        self.ix = model.ix
        self.shapes = shapes

    # --- operand ranks ----------------------------------------------------------------------------------
    def body_ranks(
        self, fun: ast.AST, reached: ReachedSite, body: ast.AST | None, wrapped: bool, calls: VmapCalls | None
    ) -> dict[str, Rank]:
        """The parameters of `body` (the shard_map's function) whose operand rank is known, with that rank (a
        structure for a pytree literal passed at the shard_map's application, module docstring).

        fun: the vmapped callable; reached: the path to the shard_map; wrapped: the body is reached through a
        wrapper (`jax.vmap(g)`, `jax.jit(g)`), whose effect on ranks is not followed; calls: every call of
        the vmap (`VmapCallAnalysis.calls`). Empty when anything on the way is not followed."""
        if not isinstance(body, FUNCTION_NODES) or wrapped or reached.vmaps or calls is None or not calls.complete:
            return {}
        start = self.ix.function_of(fun)
        if start is None or start.args.vararg or start.args.kwonlyargs:
            return {}
        ranks = {}
        for i, name in enumerate(_positional(start)):
            seen = {c.ranks[i] if i < len(c.ranks) else None for c in calls.calls}
            if len(seen) == 1 and None not in seen:
                ranks[name] = seen.pop()
        current = start
        for node in reached.chain_nodes:
            if current is body or node is reached.site.node:
                break
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                break  # the shard_map construction (its application is handled below) or a wrapper
            callee = self.ix.function_of(node.func)
            if callee is None or not self._plain_call(node, callee):
                return {}
            ranks = self._passed(node, callee, self._stable(current, ranks))
            current = callee
        if current is body:
            return ranks  # a shard_map decorator: the last call applies it to its operands
        application = self.ix.parent.get(id(reached.site.node))
        if not (isinstance(application, ast.Call) and application.func is reached.site.node):
            return {}
        if self.ix.enclosing_function(application) is not current or not self._plain_call(application, body):
            return {}
        return self._passed(application, body, self._stable(current, ranks), literals=True)

    def _plain_call(self, call: ast.Call, callee: ast.AST) -> bool:
        """Positional arguments only, one per parameter, into a callee without *args/keyword-only ones."""
        if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
            return False
        if callee.args.vararg or callee.args.kwonlyargs or callee.args.defaults:
            return False
        return len(call.args) == len(_positional(callee))

    def _passed(
        self, call: ast.Call, callee: ast.AST, ranks: dict[str, int], literals: bool = False
    ) -> dict[str, Rank]:
        """The callee's parameters that receive a name of known rank as is; with `literals` (the shard_map's
        application) also those receiving a dict, tuple or list literal of such names (a structure)."""
        out = {}
        for param, arg in zip(_positional(callee), call.args):
            if isinstance(arg, ast.Name) and arg.id in ranks:
                out[param] = ranks[arg.id]
            elif literals and (structure := self.structure_of(arg, ranks)) is not None:
                out[param] = structure
            elif literals and isinstance(arg, (ast.Name, ast.Call, ast.Attribute, ast.Subscript)):
                out[param] = UnreadOperand(arg)
        return out

    def structure_of(self, arg: ast.AST, ranks: dict[str, Rank], depth: int = 0) -> dict | None:
        """The structure of a pytree operand (`_structure`) written as a dict, tuple or list literal; or a name
        bound once in its function to such a literal and read only there (`tree = {'a': x, 'b': w}` then
        `f(tree)`: no other read, so nothing changes it between); or a call of a function of this module whose
        one return is such a literal (or such a name), with positional arguments of known rank bound to its
        parameters (`pack(x, w)`, `def pack(x, w): return {'a': x, 'b': w}`). None otherwise: the rank of its
        leaves stays unknown (`pytree_source` says what it is)."""
        if depth > 4:
            return None
        structure = _structure(arg, ranks)
        if structure is not None:
            return structure
        if isinstance(arg, ast.Name):
            bound = self._literal_binding(arg)
            return _structure(bound, ranks) if bound is not None else None
        if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name):
            callee = self.ix.function_of(arg.func)
            if callee is None or isinstance(callee, ast.Lambda) or not self._plain_call(arg, callee):
                return None
            returned = single_return(callee)
            if returned is None:
                return None
            inner = self._stable(callee, self._passed(arg, callee, {k: v for k, v in ranks.items() if isinstance(v, int)}))
            if isinstance(returned, ast.Name):
                bound = self._literal_binding(returned)
                return _structure(bound, inner) if bound is not None else None
            return _structure(returned, inner)
        return None

    def _literal_binding(self, name: ast.Name) -> ast.AST | None:
        """The dict, tuple or list literal `name` is bound to, when its function binds it once (`tree = {...}`),
        to such a literal, and `name` is read nowhere else in that function (no store into it, no method call,
        no alias could change what it holds before this read)."""
        scope = self.ix.scope_at(name)
        binding = self.ix.single_binding(name.id, scope)
        if binding is None or binding.kind is not BindingKind.ASSIGN or binding.scope is not scope:
            return None
        value = binding.node
        if not isinstance(value, (ast.Dict, ast.Tuple, ast.List)):
            return None
        statement = self.ix.parent.get(id(value))
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)):
            return None
        func = scope.node
        reads = [
            n for n in ast.walk(func)
            if isinstance(n, ast.Name) and n.id == name.id and isinstance(n.ctx, ast.Load)
            and self.ix.scope_at(n) is scope
        ]
        others = [n for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == name.id and self.ix.scope_at(n) is not scope]
        return value if reads == [name] and not others else None

    def _stable(self, func: ast.AST, ranks: dict[str, int]) -> dict[str, int]:
        """The names of `ranks` that keep their rank throughout `func`: parameters never rebound, or rebound only
        by `name = jax.lax.with_sharding_constraint(name, ...)` (which keeps the shape)."""
        scope = self.ix.own_scope(func)
        if scope is None:
            return {}
        out = {}
        for name, rank in ranks.items():
            bindings = scope.bindings.get(name, [])
            if bindings and all(b.kind is BindingKind.PARAM or self._shape_keeping(b.node, name) for b in bindings):
                out[name] = rank
        return out

    def _shape_keeping(self, value: ast.AST, name: str) -> bool:
        """`name = jax.lax.with_sharding_constraint(name, ...)`: keeps the shape."""
        return self._rebinds_itself(value, name, jaxapi.WITH_SHARDING_CONSTRAINT_NAMES)

    def _rebinds_itself(self, value: ast.AST, name: str, callees: frozenset[str]) -> bool:
        """`value` is the call in `name = f(name, ...)`, one target, with `f` one of `callees`."""
        statement = self.ix.parent.get(id(value))
        if not (isinstance(statement, ast.Assign) and statement.value is value and len(statement.targets) == 1):
            return False
        if not (isinstance(statement.targets[0], ast.Name) and isinstance(value, ast.Call) and value.args):
            return False
        qname = self.ix.qualname(value.func, self.ix.scope_at(value))
        first = value.args[0]
        return qname in callees and isinstance(first, ast.Name) and first.id == name

    # --- the broadcast check ------------------------------------------------------------------------------
    def broadcast_only(self, body: ast.AST, name: str, ranks: dict[str, Rank]) -> bool:
        """Every read of the unbatched array `name` in `body` is an operand of `*`, `+`, `-` or `/` whose other
        operand has a known rank higher than the array's own (the measured rule, module docstring)."""
        if not ranks:
            return False
        loads = _loads(body, name)
        if not loads:
            return False
        own = self._own_shape(loads[0])
        if own is None:
            return False
        for load in loads:
            parent = self.ix.parent.get(id(load))
            if not (isinstance(parent, ast.BinOp) and isinstance(parent.op, _BROADCASTING_OPS)):
                return False
            other = parent.right if parent.left is load else parent.left
            rank = self._rank(other, body, ranks, name, len(own))
            if rank is None or rank <= len(own):
                return False
        return True

    def _own_shape(self, load: ast.Name) -> tuple[int, ...] | None:
        """The static shape of the unbatched array a body reads as `load`: read in this module
        (`StaticShapes.shape`), or, for a name imported from another module of the project (`from pkg.config
        import W`), read in that module when nothing else of the project may write it
        (`ProjectLink.name_writer`); None otherwise. Across modules the shape was unknown, so the exemption's
        SPMD910 record (`block_rank_unread`) was never reached and the array's capture was a finding or
        nothing (fuzz/project.py seed 620089: silent)."""
        scope = self.ix.scope_at(load)
        own = self.shapes.shape(load, scope)
        if own is not None:
            return own
        binding = self.ix.single_binding(load.id, scope)
        project = self.shapes.model.project
        if binding is None or binding.kind is not BindingKind.IMPORT or project is None:
            return None
        found = project.binding(binding.qname)
        if found is None or found[1].kind is not BindingKind.ASSIGN or project.name_writer(binding.qname) is not None:
            return None
        model, target = found
        return StaticShapes(model).shape(target.node, target.scope)

    def pytree_unread(self, body: ast.AST, name: str, ranks: dict[str, Rank]) -> tuple[ast.AST, ast.AST] | None:
        """Whether SPMD003's broadcast exemption for the unbatched array `name` (`broadcast_only`) is undecided
        only because a pytree operand's structure is not read: every read of `name` is an operand of `*`, `+`,
        `-` or `/` whose other operand has a known rank higher than the array's, or is a leaf read by constant
        subscripts (`d['a']`, `t[0]`) of a body parameter read only that way whose operand at the application is
        an `UnreadOperand`. Then (that leaf, the operand as written): the finding would be a guess, runs when
        the leaf's rank is higher and fails when not (safety/measurements/capture_array_broadcast_pytree.py),
        and an SPMD910 record takes its place. None otherwise (the finding stands, or no finding)."""

        def leaf(other: ast.AST) -> tuple[ast.AST, ast.AST] | None:
            unread = self._unread_leaf(other, body, ranks)
            return (other, unread) if unread is not None else None

        return self._undecided_by(body, name, ranks, leaf)

    def block_rank_unread(self, body: ast.AST, name: str, ranks: dict[str, Rank]) -> ast.AST | None:
        """Whether SPMD003's broadcast exemption for the unbatched array `name` (`broadcast_only`) is undecided
        only because the rank of a body parameter is not read (`body_ranks` could not follow the vmap's calls or
        the way to the shard_map: a vmap applied to a parameter of a helper, fuzz seed 400513): every read of
        `name` is an operand of `*`, `+`, `-` or `/` whose other operand has a known rank higher than the
        array's, or is such a parameter itself. Then that parameter: the finding would be a guess, as the array
        runs when the block's rank is higher and fails (ManualAxisType) when not (the measured rule, module
        docstring), and an SPMD910 record takes its place. None otherwise."""

        def param(other: ast.AST) -> ast.AST | None:
            # (a parameter given an operand whose structure is not read, `UnreadOperand`, is read whole here: its
            # rank is not known either; breaker11 c23, c24 were a guessed SPMD003 on programs that run)
            unread = isinstance(other, ast.Name) and self._body_param(other, body) and (
                other.id not in ranks or isinstance(ranks[other.id], UnreadOperand)
            )
            return other if unread else None

        return self._undecided_by(body, name, ranks, param)

    def _undecided_by(self, body: ast.AST, name: str, ranks: dict[str, Rank], unknown):
        """The loop `pytree_unread` and `block_rank_unread` share: every read of the array `name` is an operand
        of `*`, `+`, `-` or `/` whose other operand has a known rank higher than the array's, or one `unknown`
        accepts (returning what names it); the first such acceptance when there is one and no read rules the
        exemption out, else None."""
        loads = _loads(body, name)
        if not loads:
            return None
        own = self._own_shape(loads[0])
        if own is None:
            return None
        found = None
        for load in loads:
            parent = self.ix.parent.get(id(load))
            if not (isinstance(parent, ast.BinOp) and isinstance(parent.op, _BROADCASTING_OPS)):
                return None
            other = parent.right if parent.left is load else parent.left
            rank = self._rank(other, body, ranks, name, len(own))
            if rank is not None:
                if rank <= len(own):
                    return None
                continue
            accepted = unknown(other)
            if accepted is None:
                return None
            found = found or accepted
        return found

    def _unread_leaf(self, expr: ast.AST, body: ast.AST, ranks: dict[str, Rank]) -> ast.AST | None:
        """The operand as written at the application when `expr` is a leaf read by constant subscripts of a body
        parameter, read only that way, whose operand is an `UnreadOperand`; else None."""
        if not isinstance(expr, ast.Subscript):
            return None
        while isinstance(expr, ast.Subscript):
            if _key(expr.slice) is None:
                return None
            expr = expr.value
        if not (isinstance(expr, ast.Name) and self._body_param(expr, body)):
            return None
        rank = ranks.get(expr.id)
        if not isinstance(rank, UnreadOperand) or not self._only_subscripted(body, expr.id):
            return None
        return rank.expr

    def contracted_only(self, body: ast.AST, name: str) -> bool:
        """Every read of the unbatched array `name` in `body` is an operand of a contraction: `@` on either side,
        or an argument of `jnp.dot` / `jnp.matmul` / `jnp.einsum` at a position listed in
        `jaxapi.CONSTANT_PRODUCT_NAMES`. Measured on jax 0.10.2 (safety/measurements/capture_array_contraction.py):
        an all-replicated body closing over a matrix `M` under an spmd vmap with `check_vma=True` runs and matches
        with `b @ M`, `M @ b`, `jnp.dot(b, M)`, `jnp.matmul(b, M)`, `jnp.einsum('ij,jk->ik', b, M)`, blocks of
        rank 1 and 2, eager and under jit, also followed by arithmetic on the product; `b * W` fails."""
        loads = _loads(body, name)
        if not loads:
            return False
        for load in loads:
            parent = self.ix.parent.get(id(load))
            if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.MatMult):
                continue
            if not isinstance(parent, ast.Call) or parent.keywords or load not in parent.args:
                return False
            positions = jaxapi.CONSTANT_PRODUCT_NAMES.get(self.ix.qualname(parent.func, self.ix.scope_at(parent)) or "")
            if positions is None or parent.args.index(load) not in positions:
                return False
        return True

    def _rank(self, expr: ast.AST, body: ast.AST, ranks: dict[str, Rank], array: str, array_rank: int) -> int | None:
        """The rank of a body expression built from the body's parameters of known rank (the leaves of a pytree
        parameter read by constant subscripts, `_leaf`), number literals, the array itself and arithmetic on them
        (broadcasting: the larger rank); None otherwise."""
        if isinstance(expr, ast.Constant) and type(expr.value) in (int, float):
            return 0
        if isinstance(expr, ast.Name):
            if expr.id == array:
                return array_rank
            rank = ranks.get(expr.id) if self._body_param(expr, body) else None
            return rank if isinstance(rank, int) else None
        if isinstance(expr, ast.Subscript):
            return self._leaf(expr, body, ranks)
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
            return self._rank(expr.operand, body, ranks, array, array_rank)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, (*_BROADCASTING_OPS, ast.Pow)):
            left = self._rank(expr.left, body, ranks, array, array_rank)
            right = self._rank(expr.right, body, ranks, array, array_rank)
            return None if left is None or right is None else max(left, right)
        return None

    def _body_param(self, name: ast.Name, body: ast.AST) -> bool:
        """`name` reads a parameter of `body` that the body rebinds only to a value of the same rank: `b =
        jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)`, `jax.lax.dynamic_slice(b, ...)`, a sharding constraint
        (`_rank_keeping`; fuzz seed 350088: the program runs and matches)."""
        scope = self.ix.scope_at(name)
        bindings = self.ix.lookup(name.id, scope)
        params = [b for b in bindings if b.kind is BindingKind.PARAM]
        if len(params) != 1 or params[0].scope.node is not body:
            return False
        return all(b is params[0] or (b.scope is params[0].scope and self._rank_keeping(b.node, name.id)) for b in bindings)

    def _rank_keeping(self, value: ast.AST, name: str) -> bool:
        """`name = f(name, ...)` with `f` a function that keeps its operand's rank (`_RANK_KEEPING_NAMES`, or a
        sharding constraint: `_shape_keeping`)."""
        return self._shape_keeping(value, name) or self._rebinds_itself(value, name, _RANK_KEEPING_NAMES)

    def _leaf(self, expr: ast.Subscript, body: ast.AST, ranks: dict[str, Rank]) -> int | None:
        """The rank of `d['a']`, `t[0]`, `d['a'][-1]`: constant subscripts of a body parameter whose structure is
        known, read only that way in the body (`_only_subscripted`); None otherwise."""
        keys = []
        while isinstance(expr, ast.Subscript):
            if (key := _key(expr.slice)) is None:
                return None
            keys.append(key)
            expr = expr.value
        if not (isinstance(expr, ast.Name) and self._body_param(expr, body)):
            return None
        rank = ranks.get(expr.id)
        if not isinstance(rank, dict) or not self._only_subscripted(body, expr.id):
            return None
        for key in reversed(keys):
            if not isinstance(rank, dict) or key not in rank:
                return None
            rank = rank[key]
        return rank if isinstance(rank, int) else None

    def _only_subscripted(self, body: ast.AST, name: str) -> bool:
        """Every read of `name` in the body is the value of a subscript read (`d['a']`) with a constant key: no
        store into it, no method call, no alias, nothing that could change what its entries hold."""
        for load in _loads(body, name):
            parent = self.ix.parent.get(id(load))
            if not (
                isinstance(parent, ast.Subscript)
                and parent.value is load
                and isinstance(parent.ctx, ast.Load)
                and _key(parent.slice) is not None
            ):
                return False
        return True


def _key(node: ast.AST) -> int | str | None:
    """A subscript's constant key: a str or int literal, or a negated int literal (`t[-1]`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = node.operand
        return -inner.value if isinstance(inner, ast.Constant) and type(inner.value) is int else None
    return node.value if isinstance(node, ast.Constant) and type(node.value) in (int, str) else None


def _structure(arg: ast.AST, ranks: dict[str, int]) -> dict | None:
    """The structure of a dict, tuple or list literal whose entries are names of known rank (or such literals):
    each key or index (negative ones too, for a sequence) to the entry's rank, None for an entry of unknown rank.
    None when it is not such a literal (a `**` or starred entry, a key that is not a str or int literal)."""
    if isinstance(arg, ast.Dict):
        out: dict = {}
        for key, entry in zip(arg.keys, arg.values):
            if not (isinstance(key, ast.Constant) and type(key.value) in (int, str)):
                return None
            out[key.value] = _entry(entry, ranks)  # a later equal key wins, as in Python
        return out
    if isinstance(arg, (ast.Tuple, ast.List)):
        if any(isinstance(e, ast.Starred) for e in arg.elts):
            return None
        n = len(arg.elts)
        out = {}
        for i, entry in enumerate(arg.elts):
            out[i] = out[i - n] = _entry(entry, ranks)
        return out
    return None


def _entry(entry: ast.AST, ranks: dict[str, int]) -> Rank | None:
    """An entry's rank: a name's known rank, a nested literal's structure, else None (unknown)."""
    if isinstance(entry, ast.Name):
        return ranks.get(entry.id)
    return _structure(entry, ranks)
