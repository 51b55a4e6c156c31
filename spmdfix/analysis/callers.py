"""Who else runs a shard_map: the places that reach it without going through the spmd vmap.

A fix that edits a shard_map (strip edits its specs, lift-captures its body and call, disable-check-vma its
`check_vma`, rename and add-axis its `axis_names`) changes it for every place that runs it, not only for the
vmap the finding is about. The fix is proven only for the calls under that vmap, so any other place that
reaches the shard_map makes it unsafe (issue 11, "a fix that changes a function also called from places not
under this vmap is UNSAFE and names those callers").

How the places are found, by scope (`uses.UseIndex.loads`), never by textual name:

- the shard_map runs wherever the function holding it runs: the innermost `def` around it (a decorated
  `def` for the decorator form), or the name a module-level construction is assigned to
  (`step = jax.jit(jax.shard_map(...))`); a `lambda` stands for the function around it, or for the name it is
  assigned to;
- each read of that function's name is a caller (for a `__call__`, each read of its class's name); A read inside the vmap site itself (`jax.vmap(layer, ...)`)
  is the vmap; a read inside a function the vmapped callable traces is under the vmap too, but that function
  may in turn be called elsewhere, so its own readers are examined the same way (unless the read hands the
  callable to code that may keep it and run it later: `SEEN.append(w)`, `CACHE['l'] = w`, `_handed_on`: a
  place); a read assigned to a name,
  directly, in a display or through a wrapper that does not call it (`g = jax.jit(layer)`, `g = make()`,
  `jaxapi.WRAPPER_NAMES`), hands the question to the readers of `g`; any other read is another caller (a
  call, the function passed as an argument to code that may call it).

Other modules: a function the walk takes at module level (a `def`, a class whose `__call__` runs it, a
module-level name it is assigned to) may be imported by any module of the project; the walk records it as an
exit (`OtherCallers.exits`), and `analysis.project_callers` finds its reads in the modules importing it
(`analysis.importers`) and hands them to `OtherCallers.from_reads` of that module: one follower, the same
allowlist in every module.

Not followed: callers of methods (they are reached through attributes) and of a name bound several times,
which are reported as a place of their own ("callers of the method ... (not searched)").
"""

from __future__ import annotations

import ast
from dataclasses import replace

from spmdfix import jaxapi
from spmdfix.analysis.bindings import FUNCTION_NODES, Binding, BindingKind
from spmdfix.analysis.follow import CALLERS, Follow
from spmdfix.analysis.instances import class_of_expr, replaced_by
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.scopes import ModuleIndex
from spmdfix.analysis.uses import Use, UseIndex, short


class OtherCallers:
    """Finds the reads of the functions around a shard_map that are not under a given vmap.

    Input: a module's `ModuleModel` (its `ModuleIndex` and `UseIndex`). Pure.
    """

    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.ix = model.ix
        self.uses = model.uses

    def outside(self, site: ast.AST, body: ast.AST | None, traced: frozenset[int], root: ast.AST | None) -> list[Use]:
        """The reads, in source order, through which the shard_map built at `site` runs without the vmap.

        site: the shard_map call or decorator expression; body: the decorated `def` for the decorator form;
        traced: ids of the functions the vmapped callable traces (`reach.ReachResult.functions`); root: the
        vmap site's node (reads inside it are the vmap; for a vmap decorator, the decorated `def`, whose
        every read is the vmap), or None when the vmap is in another module. The module-level names the
        shard_map leaves this module by are in `exits` afterwards.
        """
        self._start(traced, root)
        work: list[tuple[Binding, bool]] = []  # (binding, calling it returns the shard-mapped callable)
        found: list[ast.expr] = []
        if body is not None and site in getattr(body, "decorator_list", ()):
            self._queue_def(body, work)
        elif not (root is not None and _inside(site, root)):
            holder = _holder(self.ix, site)
            returned = holder is not None and isinstance(self.ix.parent.get(id(site)), ast.Return)
            if holder is not None and (id(holder) in traced or returned):
                self._queue_def(holder, work, factory=returned and id(holder) not in traced)
            else:
                self._value_read(site, work, found)
        return self._walk(work, found)

    def from_reads(
        self, reads: list[ast.expr], factory: bool, traced: frozenset[int], root: ast.AST | None
    ) -> list[Use]:
        """The reads, in source order, through which a function of another module that runs the shard_map runs
        here without the vmap, starting from `reads` (the expressions of this module holding it: a name
        imported, `module.name`; `analysis.importers`). factory: calling the function returns the
        shard-mapped callable (each call is the value, any other read passes the factory on). traced, root: as
        for `outside` when the vmap is in this module, else empty and None. Exits are in `exits` afterwards."""
        self._start(traced, root)
        work: list[tuple[Binding, bool]] = []
        found: list[ast.expr] = []
        for read in reads:
            self._read(read, factory, work, found)
        return self._walk(work, found)

    def _start(self, traced: frozenset[int], root: ast.AST | None) -> None:
        self._traced, self._root = traced, root
        self._unsearched: list[Use] = []
        # (name, factory) of each module-level binding the walk took: other modules may import it.
        self.exits: list[tuple[str, bool]] = []

    def _walk(self, work: list[tuple[Binding, bool]], found: list[ast.expr]) -> list[Use]:
        """Take the work list's bindings, each read once, and return the places found (module doc)."""
        # One walk over the work list (each binding taken is a step, `follow.CALLERS` of them at most).
        follow = Follow(CALLERS)
        vmapped = _def_binding(self.ix, self._root) if self._root is not None else None
        if vmapped is not None:
            follow.first_visit(vmapped)  # a vmap decorator: every call of the decorated name is the vmap
        while work and not follow.spent:
            binding, factory = work.pop()
            follow = follow.deeper()
            if not follow.first_visit(binding):
                continue
            if binding.scope.is_class:
                self._class_member(binding, factory, work)
                continue
            if binding.scope is self.ix.module_scope:
                self.exits.append((binding.name, factory))
            for load in self.uses.loads(binding):
                self._read(load, factory, work, found)
        for binding, _ in work:  # past the limit: what is left is not followed, and said so
            span = self.ix.lines.span_of_ast(binding.node)
            line = getattr(binding.node, "lineno", 1)
            self._unsearched.append(Use(span, line, f"callers of `{binding.name}` (past {CALLERS.limit} steps)"))
        uses = {}
        for node in sorted(found, key=lambda n: (n.lineno, n.col_offset)):
            use = self._described(node)
            uses.setdefault(use.span, use)
        for use in self._unsearched:
            uses.setdefault(use.span, use)
        return list(uses.values())

    def _described(self, node: ast.expr) -> Use:
        """A place found (a read of the shard-mapped callable, or of a factory returning it) as a reason names it:
        a call of it as the source around it; any other use (`Use.how`) as what it does with it, since the
        shard_map does not run there, though the callable escapes there and may run later (the place keeps the
        fix unsafe all the same): an attribute read (`model.w_in`, named by itself rather than by the call
        consuming it, `np.asarray(model.w_in)`, which read as another caller: trial-nu), a method called
        (`model.forward(x)`), an item read and not called, the value passed to a call (`helper(model)`) or used
        otherwise."""
        use = self.uses.use(node)
        up = self.ix.parent.get(id(node))
        if isinstance(up, ast.Call) and up.func is node:
            return use
        if isinstance(up, ast.Attribute) and up.value is node:
            above = self.ix.parent.get(id(up))
            if isinstance(above, ast.Call) and above.func is up:
                if up.attr == "__call__":
                    return use
                return replace(use, text=short(above, 72), how=f"calls its method `{up.attr}`")
            return replace(use, text=short(up, 72), how=f"reads its attribute `{up.attr}`")
        if isinstance(up, ast.Subscript) and up.value is node:
            above = self.ix.parent.get(id(up))
            if isinstance(above, ast.Call) and above.func is up:
                return use  # `TABLE['f'](x)`: an item called, which may be the callable
            return replace(use, text=short(up, 72), how="reads an item of it")
        if isinstance(up, ast.keyword):
            up = self.ix.parent.get(id(up))
        if isinstance(up, ast.Call):
            return replace(use, how=f"passes it to `{short(up.func)}`")
        return replace(use, how=f"uses `{short(node)}` otherwise")

    def _read(self, load: ast.expr, factory: bool, work: list, found: list) -> None:
        """One read of a name holding the shard-mapped callable (or, `factory`, a function returning it)."""
        expr: ast.expr = load
        if self._root is not None and _inside(load, self._root):
            return
        if factory:
            call = self.ix.parent.get(id(load))
            if not (isinstance(call, ast.Call) and call.func is load):
                subclass = self._inheriting(load)
                if subclass is not None:
                    work.append((subclass, True))  # its instances run the class's `__call__`: its readers
                    return
                found.append(load)  # the factory itself passed on: not followed
                return
            expr = call
        self._value_read(expr, work, found)

    def _value_read(self, expr: ast.expr, work: list, found: list) -> None:
        """One read of the shard-mapped callable (a name load, or a factory's call): under the vmap, handed
        on to the readers of the name or function it flows into, or another caller (added to `found`)."""
        if self._root is not None and _inside(expr, self._root):
            return
        holder = _holder(self.ix, expr)
        up = self.ix.parent.get(id(expr))
        called = isinstance(up, ast.Call) and up.func is expr
        if not called:
            assigned = _assigned(self.ix, self.uses, expr)
            if assigned is not None:
                work.append((assigned, False))
                return
        if holder is not None and id(holder) in self._traced:
            handed = self._handed_on(expr)
            if isinstance(handed, Binding):
                work.append((handed, False))  # a parameter of a traced function: its reads there decide
                return
            if not handed:
                self._queue_function(holder, work, found, expr)
                return
        found.append(expr)

    def _handed_on(self, expr: ast.expr) -> bool | Binding:
        """Whether the read `expr` in a traced function hands the shard-mapped callable to code that may keep it and
        run it later, outside the vmap: an argument (or an element of a display passed as one) of a call that is not
        known to call it there and then (neither `jaxapi.HIGHER_ORDER_NAMES` / `PARTIAL_NAMES`, `operator.call`, nor
        `getattr(..., '__call__')` called at once), or the value stored into an item or attribute (`CACHE['l'] = w`,
        `self.layer = w`). breaker11 a39: `SEEN.append(w)` in the vmapped `apply` kept the instance, and
        `type(SEEN[0])()(v)` ran `Base.__call__`'s shard_map outside the vmap; the read counted as under the vmap
        and strip was SAFE (the outside call's layout changed). Passed straight to a function of this module the
        vmapped callable traces, the parameter it binds (whose reads there decide: `keep(w)` storing `fn` is
        handed on), or True where the argument binds no one parameter."""
        child: ast.AST = expr
        for anc in self.ix.ancestors(expr):
            if isinstance(anc, (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.Starred, ast.keyword)):
                child = anc
                continue
            if isinstance(anc, ast.Call):
                if anc.func is child or self._calls_there(anc):
                    return False
                func = self.ix.function_of(anc.func)
                if func is None or id(func) not in self._traced:
                    return True
                direct = child is expr or isinstance(child, ast.keyword) and child.value is expr
                return (self._parameter_bound(anc, func, child) if direct else None) or True
            if isinstance(anc, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = anc.targets if isinstance(anc, ast.Assign) else [anc.target]
                return anc.value is child and any(isinstance(t, (ast.Subscript, ast.Attribute)) for t in targets)
            return False
        return False

    def _calls_there(self, call: ast.Call) -> bool:
        """Whether `call` calls the callables passed to it while it runs (`_handed_on`)."""
        scope = self.ix.scope_at(call)
        qname = self.ix.qualname(call.func, scope)
        if qname in jaxapi.HIGHER_ORDER_NAMES or qname in jaxapi.PARTIAL_NAMES or qname == "operator.call":
            return True
        if isinstance(call.func, ast.Name) and call.func.id == "getattr" and not self.ix.lookup("getattr", scope):
            up = self.ix.parent.get(id(call))
            return isinstance(up, ast.Call) and up.func is call and any(
                isinstance(a, ast.Constant) and a.value == "__call__" for a in call.args[1:2]
            )
        return False

    def _parameter_bound(self, call: ast.Call, func: ast.AST, arg: ast.AST) -> Binding | None:
        """The parameter of the `def` `func` that `arg`, an argument written directly in `call`, binds (by position
        before any `*args`, or by keyword); None otherwise (a lambda, a `*args` or `**kwargs` on the way)."""
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        params = [*func.args.posonlyargs, *func.args.args]
        name = None
        if isinstance(arg, ast.keyword):
            name = arg.arg if arg.arg in {p.arg for p in [*params, *func.args.kwonlyargs]} else None
        elif arg in call.args:
            index = call.args.index(arg)
            if not any(isinstance(a, ast.Starred) for a in call.args[:index + 1]) and index < len(params):
                name = params[index].arg
        inner = self.ix.own_scope(func)
        binding = self.ix.single_binding(name, inner) if name is not None and inner is not None else None
        return binding if binding is not None and binding.kind is BindingKind.PARAM else None

    def _queue_function(self, holder: ast.AST, work: list, found: list, expr: ast.expr) -> None:
        """Queue the readers of a traced function `holder` that runs the shard_map (a lambda stands for the
        name it is assigned to, or for the function around it)."""
        while isinstance(holder, ast.Lambda):
            assigned = _assigned(self.ix, self.uses, holder)
            if assigned is not None:
                work.append((assigned, False))
                return
            outer = _holder(self.ix, holder)
            if outer is None:
                return  # a module-level lambda passed straight on (to the vmap: inside root, checked before)
            holder = outer
        self._queue_def(holder, work)

    def _inheriting(self, load: ast.expr) -> Binding | None:
        """The binding of the class whose base `load` is (`class Layer(Base):`, `Base` the class whose `__call__`
        runs the shard_map), when calling its instances runs that `__call__`: its body binds no `__call__` (one
        that calls `super().__call__` also runs it: a place), it is neither decorated nor given keywords
        (`metaclass=`), and its name is bound once outside a class; nor may code other than the class bodies set
        its `__call__` or decide what its instances are (`instances.replaced_by` of it, and of the base as a base:
        an `__init_subclass__` of the base may hand the subclass to code its readers do not show, a metaclass of
        the base make its instances, a store `Wide.__call__ = ...` replace it). None otherwise (the read is a
        place)."""
        cls = self.ix.parent.get(id(load))
        if not isinstance(cls, ast.ClassDef) or load not in cls.bases or cls.decorator_list or cls.keywords:
            return None
        inner = self.ix.own_scope(cls)
        if inner is None or "__call__" in inner.bindings:
            return None
        if replaced_by(self.model, cls, "__call__") is not None:
            return None
        base = class_of_expr(self.model, load, self.ix.scope_at(cls))
        if not isinstance(base, tuple) or replaced_by(base[0], base[1], "__call__", as_base=True) is not None:
            return None
        binding = _def_binding(self.ix, cls)
        return binding if binding is not None and not binding.scope.is_class else None

    def _class_member(self, binding: Binding, factory: bool, work: list) -> None:
        """A name of a class body holding the shard-mapped callable (`__call__ = _apply`): it is read through the
        class and its instances, never by its name. `__call__` runs where an instance is called: the class's
        readers, as for a `def __call__`; any other member's callers go through attributes: not searched, said
        so (before, the name's loads, none, made the function look called under the vmap only)."""
        cls = binding.scope.node
        owner = _def_binding(self.ix, cls)
        if binding.name == "__call__" and not factory and owner is not None and not owner.scope.is_class:
            work.append((owner, True))
            return
        span = self.ix.lines.span_of_ast(binding.node)
        line = getattr(binding.node, "lineno", 1)
        self._unsearched.append(Use(span, line, f"callers of the member {binding.name} (not searched)"))

    def _queue_def(self, func: ast.AST, work: list, factory: bool = False) -> None:
        binding = _def_binding(self.ix, func)
        if binding is not None and not binding.scope.is_class:
            work.append((binding, factory))
            return
        if binding is not None and binding.name == "__call__" and not factory:
            # An instance's __call__ runs where the class is instantiated and applied: the class's readers.
            cls = binding.scope.node
            owner = _def_binding(self.ix, cls)
            if owner is not None and not owner.scope.is_class:
                work.append((owner, True))  # calling the class makes the instance; calling that runs it
                return
        # A method's callers go through attributes, and a name bound several times cannot be followed: not
        # searched, and said so (a place of its own).
        name = getattr(func, "name", "<lambda>")
        what = "method" if binding is not None else "function"
        span = self.ix.lines.span_of_ast(func)
        self._unsearched.append(Use(span, func.lineno, f"callers of the {what} {name} (not searched)"))


def _holder(ix: ModuleIndex, node: ast.AST) -> ast.AST | None:
    """The innermost function (`def` or `lambda`) around `node`, or None at module level."""
    return next((a for a in ix.ancestors(node) if isinstance(a, FUNCTION_NODES)), None)


def _def_binding(ix: ModuleIndex, func: ast.AST) -> Binding | None:
    """The binding of a `def` (or `class`) when its name is bound once in its scope."""
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return None
    bindings = ix.scope_at(func).bindings.get(func.name, [])
    return bindings[0] if len(bindings) == 1 and bindings[0].node is func else None


def _assigned(ix: ModuleIndex, uses: UseIndex, node: ast.AST) -> Binding | None:
    """The name a statement `name = <... node ...>` binds, when bound once and `node` is not called on the
    way (`g = jax.jit(layer)` binds `g`; `r = jax.jit(layer)(x)` runs `layer`: None)."""
    child = node
    for anc in ix.ancestors(node):
        if isinstance(anc, ast.Call) and (anc.func is child or not _wraps(ix, anc)):
            return None  # called here, or passed to code that may call it: a place of its own
        child = anc
        if isinstance(anc, (ast.Assign, ast.AnnAssign)):
            targets = anc.targets if isinstance(anc, ast.Assign) else [anc.target]
            if len(targets) == 1 and anc.value is not None:
                return uses.target_binding(targets[0], anc.value)
            return None
        if isinstance(anc, (ast.stmt, *FUNCTION_NODES)):
            return None
    return None


def _wraps(ix: ModuleIndex, call: ast.Call) -> bool:
    """Whether `call` wraps the callables passed to it without calling them (`jax.jit(f)`, `partial(f, w)`,
    `jax.vmap(f)`, `jax.checkpoint(f)`, ...: `jaxapi.WRAPPER_NAMES`): the name it is assigned to holds them."""
    qname = ix.qualname(call.func, ix.scope_at(call))
    return qname in jaxapi.WRAPPER_NAMES or qname in jaxapi.PARTIAL_NAMES or qname in jaxapi.VMAP_NAMES


def _inside(node: ast.AST, root: ast.AST) -> bool:
    """Whether `node` lies within `root`'s source range."""
    start = (node.lineno, node.col_offset)
    end = (getattr(node, "end_lineno", None) or node.lineno, getattr(node, "end_col_offset", None) or node.col_offset)
    first = (root.lineno, root.col_offset)
    last = (getattr(root, "end_lineno", None) or root.lineno, getattr(root, "end_col_offset", None) or root.col_offset)
    return first <= start and end <= last
