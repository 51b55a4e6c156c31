"""The facts of one shard_map as one vmap reaches it (`facts.ReachedFacts`), gathered from the recognisers.

For each shard_map a vmapped callable reaches (`analysis.reach`): the shard_map's own facts
(`analysis.shard_map_facts`), the batched values and arrays its body closes over (`analysis.capture`) and where
lift-captures would edit (`analysis.lift`), the collectives that see only unbatched operands
(`analysis.batched`), why stripping its specs would change its values (`analysis.stripbody`), who else runs it
(`analysis.callers`), and which parameters an inner `jax.vmap` on the way maps. The driver
(`analysis.analyzer`) asks for them per vmap site and per summarised callable.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from spmdfix import jaxapi
from spmdfix.analysis.kinds import AxisType
from spmdfix.analysis.batched import BatchedValues
from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.callers import OtherCallers
from spmdfix.analysis.calls import argument
from spmdfix.analysis.capture import CaptureAnalysis, batch_placed_on
from spmdfix.analysis.dead_branches import dead_branch, dead_what
from spmdfix.analysis.hazards import inner_dimensions_unplaced
from spmdfix.analysis.facts import Capture, ReachedFacts, ShardMapFacts, UnreadValue
from spmdfix.analysis.lift import LiftAnalysis
from spmdfix.analysis.mesh_uses import MeshUses
from spmdfix.analysis.method_body import MethodBody, method_body, method_body_why_not
from spmdfix.analysis.method_captures import InstanceReads, instance_reads, method_instance_facts
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.project_callers import Exit, exits_of, search_exits
from spmdfix.analysis.ranks import RankAnalysis
from spmdfix.analysis.reach import Reacher, ReachedSite
from spmdfix.analysis.shapes import StaticShapes
from spmdfix.analysis.shard_map_facts import ShardMapAnalysis
from spmdfix.analysis.importers import module_path
from spmdfix.analysis.shard_maps import local_body_holder, parameter_body, shard_map_api, unwrap_body
from spmdfix.analysis.specs import spec_tree
from spmdfix.analysis.stripbody import SpecUses, StripBodyCheck
from spmdfix.analysis.kinds import UnreadKind
from spmdfix.analysis.uses import Use, listed, short
from spmdfix.paths import relpath
from spmdfix.analysis.vmap_calls import VmapCalls
from spmdfix.analysis.vmap_sites import VmapSite
from spmdfix.model import Span


class ReachedAnalysis:
    """The facts of the shard_maps reached in one module (its `ModuleModel`). Input besides the model: the
    module's `Reacher` (a body that applies another shard_map), its `SpecUses` (strip's spec entity) and its
    `StaticShapes` (the ranks of body operands). Pure."""

    def __init__(self, model: ModuleModel, reacher: Reacher, spec_uses: SpecUses, shapes: StaticShapes) -> None:
        self.model = model
        self.ix = model.ix
        self.ev = model.ev
        self.reacher = reacher
        self.spec_uses = spec_uses
        self.batched = BatchedValues(model)
        self.capture = CaptureAnalysis(model, self.batched)
        self.lift = LiftAnalysis(model)
        self.strip_body = StripBodyCheck(model)
        self.ranks = RankAnalysis(model, shapes)
        self.callers = OtherCallers(model)
        self.shard_maps = ShardMapAnalysis(model, reacher, MeshUses(model))
        self.read: set[str] = set()  # modules of the project read to search the exits (`analysis.project_callers`)

    def span(self, node: ast.AST) -> Span:
        return self.model.span(node)

    def facts(
        self,
        reached: ReachedSite,
        vmap: VmapSite,
        stripped: set[str],
        spmd: bool = True,
        traced: frozenset[int] = frozenset(),
        root: ast.AST | None | bool = True,
        calls: VmapCalls | None = None,
        calls_elsewhere: bool = False,
        placed_by: VmapCalls | None = None,
    ) -> ReachedFacts:
        """The facts of one reached shard_map. traced: ids of the functions the vmapped callable traces;
        root: the node whose reads are the vmap itself (True: the vmap site's; None: none, the vmap is in
        another module), for the shard_map's other callers (`analysis.callers`); calls: the vmap's calls, from
        which the body operands' ranks are followed (`analysis.ranks`); calls_elsewhere: those calls are an spmd
        vmap's in another module, not read here (`CaptureAnalysis.capture_facts`); placed_by: those calls, read only
        for whether every one places the batch on exactly the spmd axes of the shard_map's mesh (`batch_placed_on`:
        the mesh spans of a check are one module's or name the module, so they compare across modules), when
        `calls` is not given."""
        sm = self.shard_maps.facts(reached, vmap.node, elsewhere=root is None)
        body, wrappers = unwrap_body(self.ix, reached.site.body, reached.site.body_scope)
        # a bound method (`self._block`): read apart from `body`, whose readings take every parameter for an
        # operand; its `self` is the instance, bound before the operands (`analysis.method_body`)
        method = self._method(reached) if body is None else None
        # A plain vmap: `stripped` holds the Explicit axes its batch is placed on (SPMD003's plain-vmap case). A
        # staging function on the way does not make its body's captures harmless when its calls place the batch
        # (fuzz seed 240052, a `@jax.jit` block: `context mesh ... should match the aval mesh`): they are read as
        # those of an spmd vmap whose batch is placed (`CaptureAnalysis.capture_facts`), which fixes read too
        # (`strip_spec_entries`). Not when the batch dimension is placed on no axis (fuzz seed 280006: an input
        # placed `P(None, 'x')` reaches the shard_map, its capture runs).
        # (the calls followed decide it when others may only be added: the captures it keeps are failures of
        # those calls; a check from a directory of loose modules, importers not known, was silent: silence7)
        placed = batch_placed_on(calls if calls is not None else placed_by, stripped, sm.mesh)
        # a plain vmap's calls are passed only when every call places the batch on the shard_map's mesh: then an
        # argument it does not map that a call commits to that mesh is a capture JAX fails on (`context mesh ...
        # should match the aval mesh`, as under an spmd vmap; measured:
        # safety/measurements/plain_vmap_placed_spellings.py, part 1). Otherwise its off-spmd captures (the spmd
        # vmap's) are not its concern.
        # With the batch dimension placed on no axis (`stripped` empty) they are passed too: a value whose input
        # a call commits to the mesh is refused there (`Closing over inputs to shard_map`; parts 5 and 7).
        nested: tuple[Capture, ...] = ()
        # (a plain vmap over an input placed with no mesh axis at its batch dimension, an inner vmap on the way
        # whose dimension no call places: a staged capture's inputs are read back through it; fuzz seed 410072)
        through = not spmd and not stripped and bool(reached.vmaps) and inner_dimensions_unplaced(calls) is True
        captures, unread_captures = self.capture.capture_facts(
            vmap.fun, vmap.in_axes, reached, body, vmap.node, wrappers, sm.mesh, placed,
            calls if spmd or placed or not stripped else None, through_vmaps=through,
            calls_elsewhere=calls_elsewhere and spmd,
        )
        if not spmd and not stripped and calls is not None:
            # a plain vmap over an input placed on the mesh but not at its batch dimension: a committed
            # unmapped argument closed over is refused (`Closing over inputs to shard_map`; rules.capture)
            captures += self.capture.committed_uses(
                vmap.fun, reached, body, calls, sm.mesh, {c.name for c in captures}, wrappers=wrappers
            )
            seen = {c.name for c in captures}
            nested, unread_nested = self._nested_captures(vmap, reached, body, calls, sm.mesh, seen)
            captures += nested
            unread_captures += unread_nested
        # A jit between the vmap and the shard_map (`@jax.jit` on the function applying it, on the vmapped
        # function, `jax.jit(block)(x)`) makes an unbatched array's capture run and match on an Auto mesh,
        # check_vma True and False (measured: safety/measurements/capture_array_jit_on_the_way.py; fuzz seed
        # 320304), and on an Explicit one, the batch placed or not (capture_array_jit_on_the_way_explicit.py);
        # a jit around the vmap does not (it is not on the way).
        jitted_exempt = reached.jitted and jitted_capture_runs(sm.mesh)
        # An array placed on an Explicit mesh (`device_put`, or made under `jax.set_mesh`) is refused whatever the
        # specs: read before the unbatched arrays of all-replicated specs, whose exemptions (the batch placed on
        # the Explicit spmd axes, ranks) do not hold for it (breaker6 r16: `bias = jnp.full(...)` made under
        # `jax.set_mesh`, in_specs `P()`: JAX raised `context mesh ...`, spmdfix was silent; measured in
        # safety/trials/breaker6/measure_placed_capture_replicated_specs.py).
        # (a method body's free names are module-level ones, read as any body's: no parameter is paired there)
        placed_caps = self.capture.placed_arrays(body if method is None else method.func, {c.name for c in captures})
        instance = None
        if method is not None and (spmd or placed):
            # what the method reads through `self`: a capture of the instance (`analysis.method_captures`)
            instance = method_instance_facts(
                method, self.capture, vmap.fun, vmap.in_axes, reached, vmap.node, sm.mesh, placed, plain=not spmd
            )
        if spmd and sm.check_vma is not False and _all_replicated(sm) and not jitted_exempt and method is not None:
            # the arrays a method body may meet, unbatched: records, as the ranks exemption pairs body parameters
            # with operands and is not read past a bound `self` (breaker-style silence before: `v * self.w` under
            # `in_specs=P()` raised ManualAxisType, spmdfix was silent; measured 12-07, see docs/safety.md)
            unread_captures += self._method_array_records(
                reached.site.node, method, instance, {c.name for c in (*captures, *placed_caps)}
            )
        elif spmd and sm.check_vma is not False and _all_replicated(sm) and not jitted_exempt:
            skip = {c.name for c in captures} | {c.name for c in placed_caps}
            arrays = self.capture.unbatched_arrays(reached.site.node, body, skip)
            skip |= {c.name for c in arrays}
            if arrays:
                # an array only broadcast against operands of higher rank runs (measured: analysis.ranks)
                ranks = self.ranks.body_ranks(vmap.fun, reached, body, bool(wrappers), calls)
                # ... and so does one only contracted with them (`b @ M`, `jnp.dot(b, M)`: ranks.contracted_only)
                arrays = tuple(
                    c for c in arrays
                    if not (self.ranks.broadcast_only(body, c.name, ranks) or self.ranks.contracted_only(body, c.name))
                )
                # ... and one that may only be broadcast against a leaf of a pytree operand whose structure is not
                # read, or a body parameter whose rank is not read, is neither: an SPMD910 record there, never a
                # guessed finding (issue 22; fuzz seed 400513)
                undecided = {c.name: self._rank_undecided(body, c.name, ranks) for c in arrays}
                unread_captures += tuple(u for c in arrays if (u := undecided[c.name]) is not None)
                arrays = tuple(c for c in arrays if undecided[c.name] is None)
            captures += arrays
            unread_captures += tuple(
                UnreadValue(
                    UnreadKind.OPERAND_RANK, self.span(node),
                    _module_array_what(node, qname) if why is None else _unread_array_what(short(node), why),
                )
                for node, qname, why in self.capture.module_attribute_arrays(reached.site.node, body)
            )
            # a closed-over name whose array is not read (rebound, bound to a call not read, star-imported): an
            # SPMD910 record, unless only contracted with the block, which runs whatever its rank
            unread_captures += tuple(
                UnreadValue(UnreadKind.OPERAND_RANK, self.span(node), _unread_array_what(node.id, why))
                for node, why in self.capture.unread_arrays(reached.site.node, body, skip)
                if not self.ranks.contracted_only(body, node.id)
            )
            if body is None:
                unread_captures += self._imported_body_records(reached)
        # (under a plain vmap over an Explicit-placed input too: measured to fail, `context mesh ...` with the
        # batch placed on the mesh, `Closing over inputs to shard_map` without; plain_vmap_placed_spellings.py,
        # part 2, and open_items_issue22_kind9.py, part A)
        captures += placed_caps
        if instance is not None:
            captures += instance.captures
            unread_captures += instance.unread
        if body is None and method is None and (spmd or placed):
            # a body held by a value of a function on the way (`for f in fns`, `fns[0]`, a parameter): what it
            # closes over is not read; SPMD003 needs it (breaker6 r35 was silent while JAX failed). Under a plain
            # vmap whose calls place the batch on the mesh too (leftovers7: a helper given a closure over a
            # batched value fails there, `context mesh ...`; safety/measurements/helper_body_closure_other_module.py)
            holder = local_body_holder(self.ix, reached.site.body, reached.site.body_scope)
            if holder is not None:
                what = _body_what(*holder, spmd)
                plain = _body_what(*holder, spmd=False) if spmd else ""
                unread_captures += (UnreadValue(UnreadKind.BODY, self.span(holder[0]), what, plain),)
        lift = None
        if method is not None and captures:
            # (lift-captures adds parameters and in_specs to a body it edits; a method's `self` reads are not lifted)
            lift = f"the shard_map body {method.words()}, reads the value through `{method.instance}`, which lift-captures does not edit"
        elif captures and nested:
            # (lift-captures edits the reached shard_map: the nested body's closure would stay)
            lift = "a shard_map nested in the body closes over the value, which lifting it into this one leaves"
        elif any(c.helper for c in captures):
            # (the helper's closure would stay: it reads the enclosing function's value, not the new parameter)
            lift = "a function the body calls closes over the value, which lifting it into the body's parameters leaves"
        elif captures:
            names = tuple(c.name for c in captures)
            lift = self.lift.lift_site(reached.site.node, body, reached.site.args.get("in_specs"), wrappers, names)
        vmaps = tuple(self.vmap_span(n) for n in reached.vmaps)
        if method is not None:
            quiet = self._unbatched_collectives(vmap, reached, method.func, sm.check_vma is False, method.bound)
        else:
            quiet = self._unbatched_collectives(vmap, reached, body, sm.check_vma is False)
        callers, exits, root_node = self._other_callers(reached, vmap, traced, root)
        others = tuple(u.describe() for u in callers)
        if root_node is not None and exits:
            # The vmap is in this module: every module importing a way out of it is searched now; a summary
            # (root None) keeps its exits for the module importing its callable (`analysis.project_callers`).
            found, exits, read = search_exits(self.model, exits, traced, root_node, keep_own=False)
            others += tuple(found)
            self.read |= read
        mapped = self.inner_mapped(reached.vmaps, vmap)
        return ReachedFacts(
            shard_map=sm,
            chain=reached.chain,
            vmaps=vmaps,
            captures=captures,
            lift=lift,
            strip_blocker=self._strip_blocker(reached, stripped, vmap, calls),
            unbatched_collectives=quiet,
            other_callers=others,
            exits=exits,
            under_jit=reached.jitted,
            jit_wrapped=self.capture.jit_wrapped(reached.site.node, body),
            staged=reached.staged,
            cond_staged=reached.cond_staged,
            inner_mapped=mapped,
            inner_vmap=self.vmap_span(reached.vmaps[0]) if mapped else None,
            batched_maps=tuple(self.vmap_span(n) for n in reached.vmaps if self._is_batched_map(n)),
            unread_captures=unread_captures,
            dead=self._dead(reached),
            body_parameter=body is None and parameter_body(self.ix, reached.site.body, reached.site.body_scope),
            instance_unread=instance.unproven if instance is not None else "",
        )

    def _method_array_records(
        self, construction: ast.AST, method: MethodBody, instance: InstanceReads | None, skip: set[str]
    ) -> tuple[UnreadValue, ...]:
        """The SPMD910 records (kind OPERAND_RANK) of the values a bound-method body meets that may be unbatched
        arrays, under all-replicated specs with `check_vma` on (`construction`: the shard_map's): module-level
        arrays it closes over (`CaptureAnalysis.unbatched_arrays`, `module_attribute_arrays`, `unread_arrays`)
        and its first read of an instance the vmap does not batch (`self.w`). An unbatched array meeting the
        block fails (ManualAxisType) unless the block's rank is higher, which `ranks` reads by pairing the body's
        parameters with the operands, not done past a bound `self`: a record, never a guessed finding nor
        silence (`v * self.w` under `in_specs=P()` raised ManualAxisType while spmdfix was silent)."""
        func = method.func
        arrays = self.capture.unbatched_arrays(construction, func, skip)
        why = "it is an array, and the block's rank is not read past the method's bound `self`"
        out = [UnreadValue(UnreadKind.OPERAND_RANK, c.use, _unread_array_what(c.name, why)) for c in arrays]
        out += [
            UnreadValue(
                UnreadKind.OPERAND_RANK, self.span(node),
                _module_array_what(node, qname) if why is None else _unread_array_what(short(node), why),
            )
            for node, qname, why in self.capture.module_attribute_arrays(construction, func)
        ]
        out += [
            UnreadValue(UnreadKind.OPERAND_RANK, self.span(node), _unread_array_what(node.id, why))
            for node, why in self.capture.unread_arrays(construction, func, skip | {c.name for c in arrays})
        ]
        if instance is not None and not instance.captures and not instance.unproven:
            reads = instance_reads(method, self.capture)
            if reads:
                up = self.ix.parent.get(id(reads[0]))
                node = up if isinstance(up, ast.Attribute) and up.value is reads[0] else reads[0]
                why = f"it is read off the instance the shard_map body `{short(method.read)}` is bound to, which spmdfix does not read"
                out.append(UnreadValue(UnreadKind.OPERAND_RANK, self.span(node), _unread_array_what(short(node), why)))
        return tuple(out)

    def _method(self, reached: ReachedSite) -> MethodBody | None:
        """The bound method the reached shard_map's body is (`analysis.method_body`), or None."""
        site = reached.site
        return method_body(self.model, self.reacher.instances, site.body, site.body_scope)

    def _dead(self, reached: ReachedSite) -> tuple[Span, str] | None:
        """The SPMD910 record of a way through a branch Python never takes (`dead_branches`), or None."""
        found = dead_branch(self.ix, (*reached.chain_nodes, reached.site.node))
        if found is None:
            return None
        branch, value = found
        return self.model.span(branch.test), dead_what(self.ix, branch, value, reached.site.node)

    def _imported_body_records(self, reached: ReachedSite) -> tuple[UnreadValue, ...]:
        """The SPMD910 records of a shard_map body imported from another module of the project that closes over
        arrays of that module (`CaptureAnalysis.imported_body_arrays`), one per array read (but those only
        contracted with the block: `RankAnalysis.contracted_only`, read there), at the body's name here."""
        found = self.capture.imported_body_arrays(reached.site.node, reached.site.body, reached.site.body_scope)
        if found is None:
            return ()
        where, body, qname, reads = found
        ranks = RankAnalysis(where.model, StaticShapes(where.model))
        return tuple(
            UnreadValue(
                UnreadKind.OPERAND_RANK, self.span(reached.site.body),
                _imported_body_what(qname, relpath(where.ix.path), short(node), node.lineno),
            )
            for node, name in reads
            if not (isinstance(node, ast.Name) and ranks.contracted_only(body, name))
        )

    def _rank_undecided(self, body: ast.AST, name: str, ranks) -> UnreadValue | None:
        """The SPMD910 value (kind OPERAND_RANK) of an unbatched array whose broadcast exemption is undecided for
        a rank not read: a pytree leaf's (`RankAnalysis.pytree_unread`), else a body parameter's
        (`block_rank_unread`); None when the exemption is decided."""
        found = self.ranks.pytree_unread(body, name, ranks)
        if found is not None:
            return UnreadValue(UnreadKind.OPERAND_RANK, self.span(found[0]), _operand_rank_what(name, *found))
        block = self.ranks.block_rank_unread(body, name, ranks)
        if block is not None:
            return UnreadValue(UnreadKind.OPERAND_RANK, self.span(block), _block_rank_what(name, block))
        return None

    def _nested_captures(
        self, vmap: VmapSite, reached: ReachedSite, body: ast.AST | None, calls: VmapCalls, mesh, seen: set[str],
    ) -> tuple[tuple[Capture, ...], tuple[UnreadValue, ...]]:
        """Under a plain vmap over an input placed on the Explicit mesh with its batch dimension on no mesh axis:
        the values the body of a `jax.shard_map` applied in the reached `body` on the context mesh (no `mesh=`)
        closes over from the function defining `body` (its `home`: where the nested body is defined too, or
        inside `body`), batched from an input a call commits to the mesh, or from an argument the vmap does not
        map that a call commits to it (`CaptureAnalysis.capture_facts`, `committed_uses`, read with that
        `home`). Measured on jax 0.10.2 (safety/measurements/plain_vmap_committed_capture_inner_nested.py, part
        B; fuzz seed 360247): JAX refuses both as it does in the reached body itself, `Closing over inputs to
        shard_map where the input is sharded on Explicit axes`, the nested body defined beside the outer one or
        inside it, eager and under jit (with `check_vma=False` called eagerly SPMD008's error comes first);
        unplaced inputs run. A nested shard_map given its own `mesh=` is not measured: left out. Names in
        `seen` are left out. Returns (captures, the SPMD910 values `capture_facts` gives for them)."""
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) or mesh is None:
            return (), ()
        home = self.ix.enclosing_function(body)
        if home is None:
            return (), ()
        found: list[Capture] = []
        unread: list[UnreadValue] = []
        for inner in self.reacher.reach_body(body).sites:
            site = inner.site
            if not site.api.written_specs or site.args.get("mesh") is not None:
                continue
            nested_body, wrappers = unwrap_body(self.ix, site.body, site.body_scope)
            if nested_body is None or not any(a is home for a in self.ix.ancestors(nested_body)):
                continue
            names = seen | {c.name for c in found}
            batched, lost = self.capture.capture_facts(
                vmap.fun, vmap.in_axes, reached, nested_body, vmap.node, wrappers, mesh, False, calls, home=home
            )
            unread += lost
            batched = tuple(c for c in batched if c.name not in names)
            names |= {c.name for c in batched}
            found += batched
            found += self.capture.committed_uses(vmap.fun, reached, nested_body, calls, mesh, names, home=home)
        # (the partial-manual exemption, `Capture.mixed_only`, was measured in the reached body only: a nested
        # body's capture is refused whatever it meets, part B of the measurement above: `Capture.nested`)
        return tuple(replace(c, nested=True, mixed_only=False, mixed_blocks=()) for c in found), tuple(unread)

    def _is_batched_map(self, node: ast.AST) -> bool:
        """An inner vmap on the way that is a `jax.lax.map` with a `batch_size` (`jaxapi.BATCHED_MAP_NAMES`)."""
        return isinstance(node, ast.Call) and self.ix.qualname(node.func, self.ix.scope_at(node)) in jaxapi.BATCHED_MAP_NAMES

    def inner_mapped(self, vmaps: tuple[ast.AST, ...], vmap: VmapSite) -> tuple[int, ...]:
        """Positions of the vmapped function's parameters (past a bound `self`: the vmap's arguments) that the
        first `jax.vmap` on the way maps along axis 0, when that vmap is applied in the vmapped function (`jax.vmap(g[, in_axes])(x, ...)`) to its
        parameters as they are (each a parameter name bound once); () otherwise."""
        if not vmaps or vmap.fun is None:
            return ()
        inner = vmaps[0]
        application = self.ix.parent.get(id(inner))
        if not (isinstance(inner, ast.Call) and isinstance(application, ast.Call) and application.func is inner):
            return ()
        if self.ix.qualname(inner.func, self.ix.scope_at(inner)) not in jaxapi.VMAP_NAMES:
            return ()
        found = self.batched.callee(vmap.fun)  # a function, or a method past its bound `self`
        if found is None or self.ix.enclosing_function(application) is not found[0]:
            return ()
        if any(isinstance(a, ast.Starred) for a in application.args) or application.keywords:
            return ()
        fun, bound = found
        params = [a.arg for a in [*fun.args.posonlyargs, *fun.args.args]][bound:]
        in_axes = argument(inner, 1, "in_axes")
        scope = self.ix.scope_at(application)
        out = []
        for j, arg in enumerate(application.args):
            axis = _literal_axis(in_axes, j)
            if axis != 0 or not isinstance(arg, ast.Name) or arg.id not in params:
                continue
            binding = self.ix.single_binding(arg.id, scope)
            if binding is not None and binding.kind is BindingKind.PARAM:
                out.append(params.index(arg.id))
        return tuple(out)

    def _other_callers(
        self, reached: ReachedSite, vmap: VmapSite, traced: frozenset[int], root
    ) -> tuple[list[Use], tuple[Exit, ...], ast.AST | None]:
        """The places of this module that run the reached shard_map without the vmap
        (`analysis.callers.OtherCallers`), the module-level names it leaves the module by, and the node whose
        reads are the vmap (None when the vmap is in another module)."""
        if root is True:
            root = vmap_root(vmap)
        site = reached.site
        uses = self.callers.outside(site.node, site.body, traced, root)
        return uses, exits_of(self.model, self.callers), root

    def _unbatched_collectives(
        self, vmap: VmapSite, reached: ReachedSite, body: ast.AST | None, check_vma_off: bool = False, bound: int = 0,
    ) -> frozenset[Span]:
        """Collectives written in the body itself whose operand names only unbatched body parameters. With
        `check_vma_off` (the shard_map's `check_vma` known to be False), an operand only an inner vmap maps (the
        spmd vmap's `in_axes` None for it) counts as unbatched: measured to run and match there, while with
        `check_vma=True` it raises the `pvary` error SPMD004 names
        (safety/measurements/spmd004_operand_through_inner_vmap.py). `bound`: leading parameters of `body` bound
        before the operands (a bound method's `self`)."""
        if body is None or vmap.fun is None:
            return frozenset()
        unbatched = self.batched.unbatched_operands(vmap.fun, vmap.in_axes, reached, body, not check_vma_off, bound)
        if not unbatched:
            return frozenset()
        quiet = set()
        for call in self.ix.calls_in(body):
            qname = self.ix.qualname(call.func, self.ix.scope_at(call))
            if qname not in jaxapi.COLLECTIVE_AXIS_POSITION or qname == "jax.lax.axis_index" or not call.args:
                continue
            names = [n for n in ast.walk(call.args[0]) if isinstance(n, ast.Name)]
            if names and all(n.id in unbatched for n in names):
                quiet.add(self.span(call))
        return frozenset(quiet)

    def _strip_blocker(
        self, reached: ReachedSite, stripped: set[str], vmap: VmapSite, calls: VmapCalls | None
    ) -> str:
        """Why stripping `stripped` from the reached shard_map's specs changes its values ("" if it does not).
        vmap, calls: the vmap and its calls, from which the body operands' ranks are followed (`analysis.ranks`:
        two blocks combine alike after the strip only when their ranks are equal)."""
        site = reached.site
        if not site.api.written_specs:
            return "`jax.smap` has no specs to strip: its specs come from `in_axes`/`out_axes` and `axis_name`"
        func, wrappers = unwrap_body(self.ix, site.body, site.body_scope)
        method = self._method(reached) if func is None else None
        if method is not None:
            func = method.func
        if func is None:
            why = method_body_why_not(self.model, self.reacher.instances, site.body, site.body_scope)
            return "the shard_map body is not a function of this module" + (f": {why}" if why else "")
        bound = next((call for qname, call in wrappers if qname in jaxapi.PARTIAL_NAMES and (call.args[1:] or call.keywords)), None)
        if bound is not None:
            # `functools.partial(scale, w=W)`: the bound values are not arguments the in_specs cover, whatever
            # the parameter list says (safety/trials/breaker12 s05: W shaped for one block, the strip raised)
            return (
                f"the shard_map body `{short(bound)}` (line {bound.lineno}) binds values with `functools.partial`: "
                "they are not blocks, and after the strip they meet the whole array"
            )
        if self.reacher.reach_body(func).sites:
            return "the shard_map body applies another shard_map"
        args = site.args
        # (a bound method's operands fill the parameters after `self`: `body_ranks` pairs them with all of them,
        # so its ranks are not read there and two blocks never combine)
        ranks = {} if method is not None else self.ranks.body_ranks(vmap.fun, reached, func, bool(wrappers), calls)
        ints = {name: rank for name, rank in ranks.items() if type(rank) is int}
        why = self.strip_body.check(
            func, args.get("in_specs"), args.get("out_specs"), site.scope, stripped, ints, method.bound if method else 0
        )
        if why:
            return why
        roots = [a for a in (args.get("in_specs"), args.get("out_specs")) if a is not None]
        trees = [spec_tree(self.ev, r, site.scope) for r in roots]
        for tree in trees:
            if tree.helpers and any(True for _ in tree.entries_naming(stripped)):
                # A spec a project function returns (`in_specs=rows()`): its other calls would see the edit, and
                # the uses of a function's return value are not on strip's allowlist.
                call = tree.helpers[0]
                where = f"line {self.ix.lines.line_of(call.start) + 1}" if not call.path else relpath(call.path)
                return f"the spec is returned by a function called at {where}: its other calls would see the strip too"
        edited = [e.span for tree in trees for e, _ in tree.entries_naming(stripped)]
        unfollowed = self.spec_uses.unfollowed_spans(roots, site.scope, edited)
        if unfollowed:
            return (
                f"the stripped spec is written at {self._span_where(unfollowed[0])} and reached through "
                f"{', '.join(dict.fromkeys(f'`{short(r)}`' for r in roots))}, whose other reads spmdfix does not search: they "
                "would see the strip too"
            )
        factory = _factory_reference(self.ix, site)
        shared = self.spec_uses.foreign_uses(roots + ([factory] if factory is not None else []), site.scope, edited)
        if shared:
            return f"the stripped spec is also used by {listed(shared)}: the strip would change that use too"
        return ""

    def _span_where(self, span: Span) -> str:
        """`line n` of this module, or `pkg/m.py line n` of another (for a reason's words)."""
        if span.path and span.path != module_path(self.model):
            return relpath(span.path)
        return f"line {self.ix.lines.line_of(span.start) + 1}"

    def vmap_span(self, node: ast.AST) -> Span:
        """Where an inner vmap is written: the `jax.vmap` callee of a call, or a decorator."""
        if isinstance(node, ast.Call):
            return self.span(node.func)
        return self.span(node)


def _factory_reference(ix, site) -> ast.AST | None:
    """The name the shard_map site takes its specs from when they are written in a shard_map factory bound to
    it (`sharded = functools.partial(jax.shard_map, in_specs=P('x'), ...)`, then `@sharded` or
    `sharded(f)`): the factory may build other shard_maps, which would see the strip of its specs too
    (safety/trials/breaker12 s30: a second `@sharded` function reducing per block returned other values).
    None when the factory is written in place (`@partial(jax.shard_map, ...)`, `jax.shard_map(f, ...)`)."""
    node = site.node
    if isinstance(node, ast.Call):
        if shard_map_api(ix, node.func, site.scope) is not None:
            return None
        node = node.func
    return node if isinstance(node, (ast.Name, ast.Attribute)) else None


def vmap_root(vmap: VmapSite) -> ast.AST:
    """The node whose reads are the vmap itself: the vmap call, or the decorated `def` of a vmap decorator
    (every call of the decorated name is the vmap)."""
    if isinstance(vmap.fun, (ast.FunctionDef, ast.AsyncFunctionDef)) and vmap.node in vmap.fun.decorator_list:
        return vmap.fun
    return vmap.node


def jitted_capture_runs(mesh) -> bool:
    """Whether an unbatched array a shard_map body closes over runs under the spmd vmap when a jit lies on the
    way, on `mesh` (a `MeshInfo` or None): measured on Auto and Explicit meshes (every variant runs); a mixed or
    unknown mesh is not exempt (safety/measurements/capture_array_jit_on_the_way.py,
    capture_array_jit_on_the_way_explicit.py)."""
    return mesh is not None and mesh.axis_types in (AxisType.AUTO, AxisType.EXPLICIT)


def _all_replicated(sm: ShardMapFacts) -> bool:
    """The shard_map has operands, and every in_specs and out_specs entry is read and names no mesh axis
    (`P()`, `P(None)`). Measured: with `in_specs=()` (no operand) a closure over an array runs."""
    trees = (sm.in_specs, sm.out_specs)
    return not any(t.unresolved or t.axes() for t in trees) and bool(sm.in_specs.specs and sm.out_specs.specs)


def _literal_axis(in_axes: ast.AST | None, j: int) -> int | None:
    """The `in_axes` entry of positional argument j when written as literals (default 0), else None."""
    if in_axes is None:
        return 0
    if isinstance(in_axes, ast.Constant):
        return in_axes.value if type(in_axes.value) is int else None
    if isinstance(in_axes, (ast.Tuple, ast.List)) and j < len(in_axes.elts):
        elt = in_axes.elts[j]
        return elt.value if isinstance(elt, ast.Constant) and type(elt.value) is int else None
    return None


def _operand_rank_what(array: str, leaf: ast.AST, operand: ast.AST) -> str:
    """The words of the SPMD910 record for an unbatched array that meets a leaf of a pytree operand whose
    structure is not read (`ranks.RankAnalysis.pytree_unread`)."""
    return (
        f"the rank of `{short(leaf)}` is not known: the shard_map's operand `{short(operand)}` is not a dict, tuple or "
        "list literal spmdfix reads (written at the application, bound once to a name read only there, or returned "
        f"by a helper of the module); `{array}` meets it in arithmetic, which runs when the leaf's rank is higher "
        "than the array's and fails (ManualAxisType) when not"
    )


def _module_array_what(node: ast.Attribute, qname: str) -> str:
    """The words of the SPMD910 record for an array of another module that a shard_map body reads as a module's
    attribute (`capture.CaptureAnalysis.module_attribute_arrays`)."""
    return (
        f"`{short(node)}` (`{qname}`), an array of another module that the shard_map body closes over, is not "
        "read against the block's rank: an unbatched array meeting the block runs when the block's rank is higher "
        "than the array's and fails (ManualAxisType) when not"
    )


def _unread_array_what(name: str, why: str) -> str:
    """The words of the SPMD910 record for a closed-over name whose array is not read
    (`capture.CaptureAnalysis.unread_arrays`), `why` saying how it is bound."""
    return (
        f"the shard_map body closes over `{name}`, which may hold an unbatched array: {why}; an unbatched array "
        "meeting the block runs when the block's rank is higher than the array's and fails (ManualAxisType) when not"
    )


def _imported_body_what(qname: str, path: str, read: str, line: int) -> str:
    """The words of the SPMD910 record for a shard_map body imported from another module that closes over an
    array of that module (`capture.CaptureAnalysis.imported_body_arrays`)."""
    return (
        f"the shard_map body `{qname}` is a function of {path}, which closes over `{read}` (line {line}), an "
        "array of that module not read against the block's rank: an unbatched array meeting the block runs when "
        "the block's rank is higher than the array's and fails (ManualAxisType) when not"
    )


def _block_rank_what(array: str, block: ast.AST) -> str:
    """The words of the SPMD910 record for an unbatched array that meets a body parameter whose rank is not read
    (`ranks.RankAnalysis.block_rank_unread`)."""
    return (
        f"the rank of `{short(block)}` is not known: spmdfix does not read the ranks of the vmap's operands on every "
        f"call or along the way to the shard_map; `{array}` meets it in arithmetic, which runs when the block's rank "
        "is higher than the array's and fails (ManualAxisType) when not"
    )


_SPMD_BODY = "a value the vmap with `spmd_axis_name` batches, closed over, makes JAX fail (SPMD003)"
_PLAIN_BODY = (
    "a value the vmap batches while its batch dimension is placed on Explicit mesh axes, closed over, makes JAX "
    "fail unless `check_vma=True` and the in_specs name another mesh axis (SPMD003)"
)


def _body_what(expr: ast.AST, why: str, spmd: bool = True) -> str:
    """The SPMD910 record of a shard_map body held by a value of a function (`shard_maps.local_body_holder`),
    under an spmd vmap or a plain vmap whose batch is placed on Explicit mesh axes."""
    return (
        f"the shard_map body `{short(expr)}` is not resolved to a function: {why}, so what it closes over is not "
        f"read; {_SPMD_BODY if spmd else _PLAIN_BODY}"
    )


def as_plain_vmap(unread: UnreadValue) -> UnreadValue:
    """A record of another module's summary (read as for an spmd vmap) as a plain vmap's: an unresolved body's
    says what JAX refuses under the plain vmap (measured: safety/measurements/helper_body_closure_other_module.py),
    the words it carries for that (`UnreadValue.plain`); any other record is the same under both."""
    return replace(unread, what=unread.plain, plain="") if unread.plain else unread
