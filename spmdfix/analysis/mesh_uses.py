"""The uses of a mesh (and of the device array behind it) that keep their values when the mesh gains an axis.

add-axis prepends a size-1 axis to a mesh construction: `Mesh(devs.reshape(2, 4), ('x', 'y'))` becomes
`Mesh(devs.reshape(1, 2, 4), ('batch', 'x', 'y'))`. Every read of that mesh sees the new axis. Measured with
jax 0.10.2 on 8 CPU devices (safety/measurements/add_axis_mesh_uses.py, docs/safety.md "add-axis: uses of
the mesh"), these uses give the same values before and after, and form the allowlist:

- the mesh passed to a shard_map (`mesh=`, the old API's positional `mesh`, `partial(shard_map, mesh=...)`);
- `NamedSharding(mesh, spec)` with a spec spmdfix can read (device_put, jit `in_shardings`/`out_shardings`,
  `with_sharding_constraint` placements keep their layout);
- `jax.set_mesh(mesh)` / `jax.sharding.use_mesh(mesh)`, and `with mesh:`;
- `mesh.size`, `mesh.devices.size`, and `mesh.shape[k]` with `k` a string literal or a constant bound to one.

A mesh made the context mesh is also read through `jax.sharding.get_abstract_mesh()` / `get_mesh()`: those
reads are classified by the same list (`get_abstract_mesh().shape['x']` keeps its value, `.axis_names` does not).
So is a shard_map's mesh, which its body sees as the abstract mesh (`passes_to_shard_map`; breaker11 e28).

Everything else changes or may change: `mesh.axis_names` (one name more; `P(*mesh.axis_names)` raises a rank
error), `mesh.shape` iterated, unpacked or measured by `len`, `mesh.axis_sizes`, `mesh.devices.shape`
(`n_a, n_b = ...` raises, `...[0]` is 1 instead of the old first size), and the mesh passed to, returned from
or stored by code spmdfix does not model. Each such use makes add-axis unsafe; the reason names it.

The mesh read through an array placed on it (measured: safety/measurements/add_axis_mesh_through_array.py):
`xs = jax.device_put(a, NamedSharding(mesh, P('y')))` carries the mesh in `xs.sharding.mesh` and
`jax.typeof(xs).sharding.mesh`; after add-axis `xs.sharding.mesh.devices.shape[0]` is 1 and the program returns
wrong values, while `xs.sharding.spec` is kept. So a mesh reached through an array is judged by the same list:
the arrays a `NamedSharding(mesh, ...)` places (`jax.device_put`, `jax.reshard`, `with_sharding_constraint`) are
followed, and of their `.sharding` (or `jax.typeof(...).sharding`) only `.spec` and `.mesh` uses on the list are
allowed; any other read of that sharding is reported. A `.sharding.mesh` read of an array the module does not
visibly place (a parameter, a jit output, the example inside the vmapped function) may be this mesh too: its uses
off the list are reported as well. The same holds for a `NamedSharding` value's own `.mesh`.

The device array: when add-axis edits a `reshape` behind a name (`devs = base.reshape(2, 4)`;
`Mesh(devs, ...)`), every other read of that name sees the new shape too: no such read is allowed.
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.calls import argument
from spmdfix.analysis.follow import DEVICE_NAMES, PLACED_ARRAYS, Follow
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.specs import spec_tree
from spmdfix.analysis.uses import Use, UseIndex, attribute_chain


class MeshUses:
    """Classifies the uses of one module's mesh constructions against add-axis's allowlist. Input: the
    module's `ModuleModel`. Pure."""

    def __init__(self, model: ModuleModel) -> None:
        self.ix = model.ix
        self.ev = model.ev
        self.uses = model.uses
        self._unplaced: list[Use] | None = None  # `_unplaced_sharding_reads`, the same for every mesh

    def mesh_reads(self, ctor: ast.Call) -> list[Use]:
        """The uses of the mesh that `ctor` (a `Mesh(...)` / `jax.make_mesh(...)` call) builds that are not on
        the allowlist, in source order.

        The mesh is also followed through the shardings built on it and the arrays they place (module
        docstring); every `.sharding.mesh` read of the module whose array is not visibly placed counts too.
        When the mesh is made the context mesh (`jax.set_mesh(mesh)`, `with mesh:`), the module's calls of
        `jax.sharding.get_abstract_mesh()` / `get_mesh()` may return it: their uses are classified the same way.
        """
        reads: list[Use] = []
        context = self._judge_mesh(ctor, reads, Follow(PLACED_ARRAYS))
        reads += self._unplaced_sharding_reads()
        if context or self.passes_to_shard_map([ctor]):
            for call in self.ix.calls:
                if self.ix.qualname(call.func, self.ix.scope_at(call)) in jaxapi.CONTEXT_MESH_GETTERS:
                    reads += self.uses.disallowed(call, self._allowed)
        return sorted(set(reads), key=lambda u: u.span)

    def imported_reads(self, ends: list[ast.expr]) -> list[Use]:
        """The uses off the allowlist of a mesh this module imports, read at `ends` (the expressions holding
        it: `analysis.importers`), judged as `mesh_reads` judges the module's own mesh (through its shardings
        and placed arrays, the module's `.sharding.mesh` reads, and its context-mesh getters when it makes the
        mesh the context mesh), in source order."""
        reads: list[Use] = []
        context = False
        for end in ends:
            context = self._judge_mesh(end, reads, Follow(PLACED_ARRAYS)) or context
        reads += self._unplaced_sharding_reads()
        if context or self.passes_to_shard_map(ends):
            for call in self.ix.calls:
                if self.ix.qualname(call.func, self.ix.scope_at(call)) in jaxapi.CONTEXT_MESH_GETTERS:
                    reads += self.uses.disallowed(call, self._allowed)
        return sorted(set(reads), key=lambda u: u.span)

    def makes_context(self, ends: list[ast.expr]) -> bool:
        """Whether some use of the mesh value held at `ends` (a construction, or the expressions of an importer
        holding an imported mesh) makes it the context mesh (`jax.set_mesh(mesh)`, `with mesh:`, also through its
        shardings and placed arrays' `.mesh`)."""
        return any(self._judge_mesh(end, [], Follow(PLACED_ARRAYS)) for end in ends)

    def getter_reads(self) -> list[Use]:
        """The uses off the list of the module's `jax.sharding.get_abstract_mesh()` / `get_mesh()` calls: where a
        mesh is made the context mesh (in any module: `jax.set_mesh(MESH)` at module level, or a `with` around a
        call of this module's code) each may return it, in source order."""
        reads: list[Use] = []
        for call in self.ix.calls:
            if self.ix.qualname(call.func, self.ix.scope_at(call)) in jaxapi.CONTEXT_MESH_GETTERS:
                reads += self.uses.disallowed(call, self._allowed)
        return sorted(set(reads), key=lambda u: u.span)

    # --- the mesh through shardings and placed arrays ----------------------------------------------
    def _judge_mesh(self, mesh: ast.expr, reads: list[Use], follow: Follow) -> bool:
        """Adds to `reads` the uses of the mesh value `mesh` off the allowlist, and those of the shardings
        `NamedSharding(mesh, ...)` builds (`_judge_sharding`). True when some use makes it the context mesh."""
        context = False
        for end in self.uses.uses_of_value(mesh):
            context = context or self._sets_context(end)
            if not self._allowed(end, self.uses):
                reads.append(self.uses.use(end))
                continue
            up = self.uses.parent(end)
            if isinstance(up, ast.Call) and self._qname(up) in jaxapi.NAMED_SHARDING_NAMES:
                context = self._judge_sharding(up, reads, follow.deeper(), placed=False) or context
        return context

    def _judge_sharding(
        self, sharding: ast.expr, reads: list[Use], follow: Follow, placed: bool, may_place: bool = True
    ) -> bool:
        """Adds to `reads` the uses of a sharding value (a `NamedSharding(mesh, ...)` call, an array's
        `.sharding`) that may see the mesh's new axis; True when one makes its mesh the context mesh.

        `.spec` is kept; `.mesh` is the mesh again (`_judge_mesh`); as the sharding argument of a placing call
        (`jax.device_put(a, s)`) it places an array, followed by `_judge_array` (measured for a `NamedSharding`
        and an array's `.sharding`; not for `jax.typeof(x).sharding`, whose mesh is abstract: `may_place`
        False reports it). Any other use of the sharding of an array placed on the mesh (`placed`: passed on,
        compared, `.shard_shape(...)`) is reported. A `NamedSharding` value, or the sharding of an array not
        known to be placed, passed to a JAX function (jit `in_shardings`, directly or in a tuple, list or
        dict) keeps its layout, as the allowlist says; any other use of it (passed to the module's own code,
        stored, compared) may read its `.mesh` where the analysis does not look, and is reported. Past
        `follow`'s depth the sharding itself is reported.
        """
        if follow.spent:
            reads.append(self.uses.use(sharding))
            return False
        context = False
        for end in self.uses.uses_of_value(sharding):
            attrs, outer = attribute_chain(self.uses, end)
            if attrs[:1] == ["spec"]:
                continue
            if attrs[:1] == ["mesh"]:
                mesh = self.uses.parent(end)
                context = self._judge_mesh(mesh, reads, follow.deeper()) or context
                continue
            array = self._placed_by(end)
            if array is not None and may_place:
                self._judge_array(array, reads, follow.deeper())
            elif placed or not self._passed_to_jax(end):
                reads.append(self.uses.use(end))
        return context

    def _passed_to_jax(self, expr: ast.expr) -> bool:
        """Whether `expr` is an argument of a JAX function (`jax.*`, or `isinstance`), directly or as an element
        of a tuple, list or dict display passed there: JAX reads a sharding's layout, never its mesh's shape."""
        node: ast.AST = expr
        up = self.uses.parent(node)
        while isinstance(up, (ast.Tuple, ast.List, ast.Dict, ast.keyword)):
            node, up = up, self.uses.parent(up)
        if not isinstance(up, ast.Call) or node is up.func:
            return False
        if isinstance(up.func, ast.Name) and up.func.id == "isinstance":
            return not self.ix.lookup("isinstance", self.ix.scope_at(up))  # the builtin, not rebound
        return (self._qname(up) or "").startswith("jax.")

    def _judge_array(self, array: ast.expr, reads: list[Use], follow: Follow) -> None:
        """Adds to `reads` the uses of an array placed on the mesh that read its sharding off the list:
        `array.sharding...` and `jax.typeof(array).sharding...` (`_judge_sharding` with `placed`). Its other
        uses (arithmetic, calls) do not read the mesh; a callee that reads it through `.sharding.mesh` is
        found by `_unplaced_sharding_reads`."""
        if follow.spent:
            reads.append(self.uses.use(array))
            return
        for end in self.uses.uses_of_value(array):
            attrs, _ = attribute_chain(self.uses, end)
            if attrs[:1] == ["sharding"]:
                self._judge_sharding(self.uses.parent(end), reads, follow.deeper(), placed=True)
                continue
            up = self.uses.parent(end)
            if isinstance(up, ast.Call) and up.args and up.args[0] is end and self._qname(up) in jaxapi.TYPEOF_NAMES:
                for aval in self.uses.uses_of_value(up):
                    if attribute_chain(self.uses, aval)[0][:1] == ["sharding"]:
                        sharding = self.uses.parent(aval)
                        self._judge_sharding(sharding, reads, follow.deeper(), placed=True, may_place=False)

    def _placed_by(self, sharding: ast.expr) -> ast.Call | None:
        """The call that places an array by `sharding` (`jax.device_put(a, sharding)`, `jax.reshard`,
        `with_sharding_constraint`) when `sharding` is its sharding argument; None otherwise."""
        up = self.uses.parent(sharding)
        if isinstance(up, ast.keyword):
            up = self.uses.parent(up)
        if not isinstance(up, ast.Call):
            return None
        param = jaxapi.PLACING_SHARDING_PARAM.get(self._qname(up) or "")
        return up if param is not None and argument(up, *param) is sharding else None

    def _unplaced_sharding_reads(self) -> list[Use]:
        """The uses off the list of every `<expr>.sharding.mesh` of the module (also through a name bound to
        `<expr>.sharding`), whatever the array: one the module does not visibly place (a parameter, the
        example inside the vmapped function) may be placed on this mesh, and its reads must not pass unseen.
        Kept for the module (they do not depend on the mesh), also across the readers built for it
        (`ModuleIndex.derived`: each mesh judged in a project builds one per importer)."""
        if self._unplaced is None:
            kept = self.ix.derived.get(("unplaced_sharding_reads",))
            if kept is not None:
                self._unplaced = list(kept)  # type: ignore[call-overload]
                return self._unplaced
            reads: list[Use] = []
            if self.ix.word_count("sharding"):
                for node in ast.walk(self.ix.tree):
                    if (
                        isinstance(node, ast.Attribute)
                        and node.attr == "sharding"
                        and isinstance(node.ctx, ast.Load)
                        and self.ix.qualname(node, self.ix.scope_at(node)) is None  # not the module `jax.sharding`
                    ):
                        self._judge_sharding(node, reads, Follow(PLACED_ARRAYS), placed=False)
            self._unplaced = reads
            self.ix.derived[("unplaced_sharding_reads",)] = tuple(reads)
        return self._unplaced

    def _qname(self, call: ast.Call) -> str | None:
        return self.ix.qualname(call.func, self.ix.scope_at(call))

    def _sets_context(self, expr: ast.expr) -> bool:
        up = self.uses.parent(expr)
        if isinstance(up, ast.withitem) and up.context_expr is expr:
            return True
        return (
            isinstance(up, ast.Call)
            and bool(up.args)
            and up.args[0] is expr
            and self.ix.qualname(up.func, self.ix.scope_at(up)) in jaxapi.SET_MESH_NAMES
        )

    def passes_to_shard_map(self, ends: list[ast.expr]) -> bool:
        """Whether the mesh value held at `ends` is a shard_map's mesh here (`mesh=`, the old API's positional
        `mesh`): its body, and the code the body calls, see it as the abstract mesh, so their
        `jax.sharding.get_abstract_mesh()` / `get_mesh()` reads are uses of it (breaker11 e28: `jax.lax.axis_size(
        get_abstract_mesh().axis_names[0])` in the body went 2 -> 1 after add-axis, which was SAFE). Unlike
        `jax.set_mesh`, nothing outside the body sees it so: the getters judged are this module's and those of
        the modules it imports (`shard_map_facts`), not every module linked to it."""
        return any(self._shard_map_mesh(use, self.uses) for end in ends for use in self.uses.uses_of_value(end))

    def _shard_map_mesh(self, expr: ast.expr, uses: UseIndex) -> bool:
        """`expr` is the mesh of a shard_map: its `mesh=` (also of `partial(shard_map, mesh=...)`), or the old
        API's positional `mesh`."""
        up = uses.parent(expr)
        if isinstance(up, ast.keyword):
            call = uses.parent(up)
            return up.arg == "mesh" and isinstance(call, ast.Call) and self._is_shard_map(call)
        return (
            isinstance(up, ast.Call)
            and self.ix.qualname(up.func, self.ix.scope_at(up)) in jaxapi.SHARD_MAP_OLD
            and argument(up, 1, "mesh") is expr
        )

    def device_reads(self, ctor: ast.Call) -> list[Use]:
        """Reads of the names between a `Mesh(...)`'s `devices` argument and the array expression they are
        bound to (`devs` in `devs = base.reshape(2, 4)`; `Mesh(devs, ...)`), other than that argument itself
        (through `follow.DEVICE_NAMES` names at most)."""
        devices = argument(ctor, 0, "devices")
        out: list[Use] = []
        follow = Follow(DEVICE_NAMES)
        while isinstance(devices, ast.Name) and not follow.spent:
            binding = self.ix.single_binding(devices.id, self.ix.scope_at(devices))
            if binding is None or binding.kind is not BindingKind.ASSIGN:
                break
            out += [self.uses.use(n) for n in self.uses.loads(binding) if n is not devices]
            devices = binding.node
            follow = follow.deeper()
        return sorted(set(out), key=lambda u: u.span)

    # --- the allowlist -----------------------------------------------------------------------------
    def _allowed(self, expr: ast.expr, uses: UseIndex) -> bool:
        if self._shard_map_mesh(expr, uses):
            return True
        up = uses.parent(expr)
        if isinstance(up, ast.keyword):
            return False
        if isinstance(up, ast.Call) and expr in up.args:
            return self._allowed_argument(expr, up)
        if isinstance(up, ast.withitem) and up.context_expr is expr:
            # `with mesh:` sets the context mesh, like jax.set_mesh; `with mesh as m:` also binds the mesh itself
            # (`Mesh.__enter__` returns it) to a name whose reads are not followed: `m.devices.shape[0]` went
            # 2 -> 1 under a SAFE add-axis (safety/trials/breaker14 m12). `jax.set_mesh(mesh)` gives None.
            return up.optional_vars is None
        return self._kept_number(expr, uses)

    def kept_number(self, expr: ast.expr) -> bool:
        """Whether `expr`, a read of a mesh in this module, is `mesh.size`, `mesh.devices.size` or `mesh.shape[k]`
        (`k` an axis name): a number the new axis keeps (measured: safety/measurements/add_axis_mesh_uses.py),
        which carries nothing of the mesh on (`importers.imported_uses`' `kept`: `EVAL_BATCH = 4 *
        MESH.shape["data"]` is not another name for the mesh; breaker7 s15)."""
        return self._kept_number(expr, self.uses)

    def _kept_number(self, expr: ast.expr, uses: UseIndex) -> bool:
        attrs, outer = attribute_chain(uses, expr)
        if attrs in (["size"], ["devices", "size"]):
            return True
        if attrs == ["shape"]:
            sub = uses.parent(outer)
            if isinstance(sub, ast.Subscript) and sub.value is outer and isinstance(sub.ctx, ast.Load):
                key = self.ev.axis_names(sub.slice, self.ix.scope_at(sub))
                return key is not None and not key.is_tuple
        return False

    def _allowed_argument(self, expr: ast.expr, call: ast.Call) -> bool:
        scope = self.ix.scope_at(call)
        qname = self.ix.qualname(call.func, scope) or ""
        if qname in jaxapi.SET_MESH_NAMES:
            return call.args[0] is expr
        if qname in jaxapi.NAMED_SHARDING_NAMES:
            spec = argument(call, 1, "spec")
            if argument(call, 0, "mesh") is not expr or spec is None:
                return False
            return not spec_tree(self.ev, spec, scope).unresolved
        return False

    def _is_shard_map(self, call: ast.Call) -> bool:
        """`shard_map(...)`, `jax.shard_map(mesh=...)` (decorator factory) or `partial(shard_map, ...)`."""
        scope = self.ix.scope_at(call)
        qname = self.ix.qualname(call.func, scope)
        if qname in jaxapi.SHARD_MAP_NAMES:
            return True
        if qname in jaxapi.PARTIAL_NAMES and call.args:
            return self.ix.qualname(call.args[0], scope) in jaxapi.SHARD_MAP_NAMES
        return False
