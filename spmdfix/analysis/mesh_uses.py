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

Everything else changes or may change: `mesh.axis_names` (one name more; `P(*mesh.axis_names)` raises a rank
error), `mesh.shape` iterated, unpacked or measured by `len`, `mesh.axis_sizes`, `mesh.devices.shape`
(`n_a, n_b = ...` raises, `...[0]` is 1 instead of the old first size), and the mesh passed to, returned from
or stored by code spmdfix does not model. Each such use makes add-axis unsafe; the reason names it.

The device array: when add-axis edits a `reshape` behind a name (`devs = base.reshape(2, 4)`;
`Mesh(devs, ...)`), every other read of that name sees the new shape too: no such read is allowed.
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.analysis.calls import argument
from spmdfix.analysis.follow import DEVICE_NAMES, Follow
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.scopes import BindingKind
from spmdfix.analysis.uses import Use, UseIndex, attribute_chain


class MeshUses:
    """Classifies the uses of one module's mesh constructions against add-axis's allowlist. Input: the
    module's `ModuleModel`. Pure."""

    def __init__(self, model: ModuleModel) -> None:
        self.ix = model.ix
        self.ev = model.ev
        self.uses = model.uses

    def mesh_reads(self, ctor: ast.Call) -> list[Use]:
        """The uses of the mesh that `ctor` (a `Mesh(...)` / `jax.make_mesh(...)` call) builds that are not on
        the allowlist, in source order.

        When the mesh is made the context mesh (`jax.set_mesh(mesh)`, `with mesh:`), the module's calls of
        `jax.sharding.get_abstract_mesh()` / `get_mesh()` may return it: their uses are classified the same way.
        """
        ends = self.uses.uses_of_value(ctor)
        reads = [self.uses.use(e) for e in ends if not self._allowed(e, self.uses)]
        if any(self._sets_context(e) for e in ends):
            for call in self.ix.calls:
                if self.ix.qualname(call.func, self.ix.scope_at(call)) in jaxapi.CONTEXT_MESH_GETTERS:
                    reads += self.uses.disallowed(call, self._allowed)
        return sorted(set(reads), key=lambda u: u.span)

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
        up = uses.parent(expr)
        if isinstance(up, ast.keyword):
            call = uses.parent(up)
            return up.arg == "mesh" and isinstance(call, ast.Call) and self._is_shard_map(call)
        if isinstance(up, ast.Call) and expr in up.args:
            return self._allowed_argument(expr, up)
        if isinstance(up, ast.withitem) and up.context_expr is expr:
            return True  # `with mesh:` sets the context mesh, like jax.set_mesh
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
        if qname in jaxapi.SHARD_MAP_OLD:
            return argument(call, 1, "mesh") is expr
        if qname in jaxapi.NAMED_SHARDING_NAMES:
            spec = argument(call, 1, "spec")
            if argument(call, 0, "mesh") is not expr or spec is None:
                return False
            return not self.ev.spec_tree(spec, scope).unresolved
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
