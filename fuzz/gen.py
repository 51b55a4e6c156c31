"""A generator of small, self-checking JAX programs: vmap(spmd_axis_name) meeting shard_map, drawn from a grammar.

A program is a dict of features (`FEATURES`: name -> one of its values), drawn deterministically from a seed
(`draw`), and rendered to source text (`render`). The source defines `main()` returning `(result, reference)`
as golden cases do (golden/README.md): `result` is the program under test, `reference` is the same
per-example computation written a second time (functions prefixed `ref_`, a plain `Mesh` with literal axis
names, no placement, constraint, jit or spmd_axis_name) under a plain `jax.vmap`, which is what JAX defines
the spmd program to compute (a plain vmap without `spmd_axis_name`). The fixes spmdfix makes edit only what
the spmd vmap reaches, so the copy keeps the reference independent of the edit under test.

Every feature's first value is its simplest; shrinking (fuzz/shrink.py) resets features to it. `render`
accepts any combination: features that do not fit the others (a second axis on a 1-axis mesh, a 2-entry
spec on a rank-1 example) degrade to the nearest form that does, so a shrunk program is always valid Python.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

# name -> values; the first value is the default (simplest) one.
FEATURES: dict[str, tuple] = {
    "spmd": ("collide", "none", "free", "tuple_collide", "pair"),
    "mesh_shape": ((2, 4), (4, 2), (8,), (2,), (2, 2, 2), (8, 1)),
    "mesh_spelling": ("reshape", "reshape_tuple", "keywords", "make_mesh", "make_mesh_auto", "make_mesh_explicit",
                      "array"),
    "names": ("xyz", "words"),
    "consts": ("none", "all", "specs", "spmd_tuple"),
    "spmd_spelling": ("keyword", "positional"),
    "rank": (1, 2),
    "spec": ("a0", "a1", "tuple", "a0_none", "none_a1", "a0_a1", "replicated"),
    "spec_style": ("P", "jax_P", "const"),
    "op": ("affine", "unary", "square", "scalar_closure", "array_closure", "block_reduce", "cumsum", "psum",
           "pmean", "axis_index", "where"),
    "coll_axis": ("spec", "spmd", "other"),
    "extra": ("none", "operand_scalar", "operand_like", "capture_batched", "capture_unbatched",
              "capture_derived", "pytree", "operand_unbatched"),
    "static_capture": (False, True),
    "mesh_read": ("none", "shape_key", "size", "devices_shape0", "devices_unpack", "len_shape",
                  "len_axis_names", "iter_shape", "placement_axis_names"),
    "mesh_read_where": ("block", "module"),
    # "auto": none on an Auto mesh; on an Explicit one the batch placed as the specs expect ("matching"),
    # since JAX requires a shard_map input on an Explicit mesh to be placed as its in_specs say (measured)
    "placement": ("auto", "matching", "a0", "a0_a1", "none_a0"),
    "constraint": ("none", "a0", "spec"),
    "inner_vmap": ("none", "in_body", "between"),
    "jit": ("eager", "jit_outer", "jit_block", "jit_shard_map"),
    "shard_map": ("call", "lambda", "decorator", "experimental"),
    "check_vma": ("omitted", True, False),
    "axis_names": ("none", "spec_and_spmd", "spec_only"),
    "nested": (False, True),
    "batch": (8, 4),
    # How the spmd vmap is applied: `jax.vmap(apply, ...)(...)` in main, or as a decorator of `apply`
    # (`@functools.partial(jax.vmap, ...)`), bare or with `@jax.jit` stacked above it (a jit outside the vmap:
    # issue 23 kind 4). Last in this dict: a feature added at the end leaves every other feature's draw as it was.
    "vmap_form": ("call", "decorator", "jit_above_decorator"),
}

# Draw weights: the plain forms are drawn more often so that most programs exercise one or two hazards.
_WEIGHTS: dict[str, tuple] = {
    "spmd": (5, 2, 2, 1, 1),
    "mesh_shape": (6, 2, 1, 1, 2, 1),
    "mesh_spelling": (4, 1, 1, 2, 1, 1, 1),
    "consts": (6, 1, 1, 1),
    "spmd_spelling": (6, 1),
    "spec": (4, 2, 2, 2, 1, 2, 1),
    "extra": (8, 2, 1, 2, 1, 1, 1, 1),
    "static_capture": (8, 1),
    "mesh_read": (12, 1, 1, 1, 1, 1, 1, 1, 1),
    "placement": (6, 1, 2, 1, 1),
    "constraint": (8, 1, 1),
    "inner_vmap": (8, 1, 1),
    "jit": (4, 2, 1, 1),
    "shard_map": (5, 2, 1, 1),
    "check_vma": (3, 1, 2),
    "axis_names": (10, 1, 1),
    "nested": (12, 1),
    "batch": (4, 1),
    "vmap_form": (8, 1, 1),
}

_NAME_SETS = {"xyz": ("x", "y", "z"), "words": ("data", "model", "pipe")}
_CONST_NAMES = {"x": "X", "y": "Y", "z": "Z", "data": "DATA", "model": "MODEL", "pipe": "PIPE"}
DIM = 8  # every per-example dimension: divisible by every product of axis sizes of an 8-device mesh


def draw(seed: int) -> dict:
    """The features of program `seed`: deterministic (random.Random(seed)), independent of other seeds."""
    rng = random.Random(seed)
    out = {}
    for name, values in FEATURES.items():
        weights = _WEIGHTS.get(name)
        out[name] = rng.choices(values, weights=weights)[0] if weights else rng.choice(values)
    return out


def defaults() -> dict:
    """The simplest program: every feature at its first value."""
    return {name: values[0] for name, values in FEATURES.items()}


def describe(features: dict) -> str:
    """The features that differ from the defaults, as `name=value` (what a program exercises)."""
    base = defaults()
    return ", ".join(f"{k}={features[k]!r}" for k in FEATURES if features.get(k, base[k]) != base[k])


@dataclass
class _Plan:
    """The resolved program: the features made consistent with each other."""

    f: dict
    names: tuple[str, ...]
    sizes: dict[str, int]
    shape: tuple[int, ...]
    rank: int  # per-example rank
    block_rank: int  # rank of the value the shard_map maps (a row under inner_vmap="between")
    entries: list  # x's spec entries (None, name, or tuple of names), len <= block_rank
    outer_entries: list  # spec of the outer shard_map when nested
    spmd: tuple[str, ...]
    coll_axis: str
    batch: int


def _plan(f: dict) -> _Plan:
    f = {**defaults(), **f}
    if f["nested"] and (f["check_vma"] is False or f["extra"] in ("operand_scalar", "operand_like", "pytree",
                                                                 "operand_unbatched")):
        # nested shard_maps with check_vma=False make JAX reject the outer out_specs without any vmap; operands
        # would need specs for both levels: keep these programs flat
        f = {**f, "nested": False}
    shape = tuple(f["mesh_shape"])
    names = _NAME_SETS[f["names"]][: len(shape)]
    sizes = dict(zip(names, shape))
    a0 = names[0]
    a1 = names[1] if len(names) > 1 else None
    rank = 2 if f["inner_vmap"] in ("in_body", "between") else f["rank"]
    block_rank = 1 if f["inner_vmap"] == "between" or f["nested"] else rank
    outer: list = []
    if f["nested"] and a1 is not None:
        outer, entries = [a0], [a1]
    else:
        form = f["spec"]
        table = {
            "a0": [a0],
            "a1": [a1 or a0],
            "tuple": [(a0, a1)] if a1 else [a0],
            "a0_none": [a0, None],
            "none_a1": [None, a1 or a0],
            "a0_a1": [a0, a1] if a1 else [a0, None],
            "replicated": [],
        }
        entries = table[form]
        if len(entries) > block_rank:
            entries = [e for e in entries if e is not None][:block_rank] or [None]
    used = [a for e in entries + outer for a in _axes(e)]
    free = [a for a in names if a not in used]
    collide = used[0] if used else a0
    spmd_form = f["spmd"]
    if spmd_form == "none":
        spmd: tuple[str, ...] = ()
    elif spmd_form == "free":
        spmd = (free[0] if free else names[-1],)
    elif spmd_form == "pair" and a1:
        spmd = (a0, a1)
    else:
        spmd = (collide,)
    coll = {"spec": collide, "spmd": spmd[0] if spmd else collide, "other": (free + [a0])[0]}[f["coll_axis"]]
    if f["op"] == "axis_index" and f["check_vma"] is not False and coll not in used:
        # with check_vma an axis_index result varies over its axis: out_specs must name it (else JAX rejects
        # the program without any vmap)
        coll = used[0] if used else coll
        if not used:
            f = {**f, "op": "psum"}
    if outer and coll not in used and used and (f["op"] in ("psum", "pmean", "axis_index")
                                                or f["extra"] == "operand_unbatched"):
        # nested: only the outer and inner shard_maps' own axes are manual in the body; a collective over any
        # other axis is unbound there (the reference raises; fuzz seed 21175)
        coll = used[0]
    batch = f["batch"]
    spmd_size = 1
    for a in spmd:
        spmd_size *= sizes[a]
    if batch % spmd_size or (f["placement"] not in ("auto", "matching") and batch % max(shape)):
        batch = 8
    return _Plan(f, names, sizes, shape, rank, block_rank, entries, outer, spmd, coll, batch)


def _axes(entry) -> list[str]:
    if entry is None:
        return []
    if isinstance(entry, tuple):
        return [a for a in entry if a is not None]
    return [entry]


class _Writer:
    """Renders one copy (program or reference) of the per-example functions."""

    def __init__(self, plan: _Plan, ref: bool):
        self.p = plan
        self.f = plan.f
        self.ref = ref
        self.pre = "ref_" if ref else ""
        self.mesh = "ref_mesh" if ref else "mesh"

    # --- names and specs -------------------------------------------------------------------------
    def name(self, axis: str, where: str) -> str:
        consts = self.f["consts"]
        if not self.ref and (consts == "all" or (consts == "specs" and where == "spec")
                             or (consts == "spmd_tuple" and where == "spmd")):
            return _CONST_NAMES[axis]
        return repr(axis)

    def entry(self, e) -> str:
        if e is None:
            return "None"
        if isinstance(e, tuple):
            return "(" + ", ".join(self.name(a, "spec") for a in e) + ")"
        return self.name(e, "spec")

    def spec(self, entries: list, style: str | None = None) -> str:
        style = "P" if self.ref else (style or self.f["spec_style"])
        head = "jax.P" if style == "jax_P" else "P"
        return f"{head}({', '.join(self.entry(e) for e in entries)})"

    # --- the body --------------------------------------------------------------------------------
    def block_last(self) -> int:
        """The size of the last dimension of the block the body receives: split only by a spec entry that
        covers that dimension (nested shard_maps map a value of the per-example rank; fuzz seed 21436)."""
        value_rank = 1 if self.f["inner_vmap"] == "between" else self.p.rank
        size = 1
        for a in _axes(self.p.entries[-1] if self.p.entries else None) if len(self.p.entries) == value_rank else []:
            size *= self.p.sizes[a]
        for a in _axes(self.p.outer_entries[-1] if self.p.outer_entries else None) if value_rank == 1 else []:
            size *= self.p.sizes[a]
        return DIM // size

    def core(self, v: str) -> str:
        op = self.f["op"]
        ax = self.name(self.p.coll_axis, "coll")
        return {
            "affine": f"{v} * 2.0 + 1.0",
            "unary": f"jnp.sin({v})",
            "square": f"{v} ** 2",
            "scalar_closure": f"{v} * SCALE",
            "array_closure": f"{v} * W",
            "block_reduce": f"{v} - {v}.mean()",
            "cumsum": f"jnp.cumsum({v}, axis=-1)",
            "psum": f"{v} + jax.lax.psum({v}, {ax})",
            "pmean": f"{v} - jax.lax.pmean({v}, {ax})",
            "axis_index": f"{v} + jax.lax.axis_index({ax})",
            "where": f"jnp.where({v} > 1.0, {v}, 0.5 * {v})",
        }[op]

    def body_lines(self, arg: str, extra_param: str | None) -> tuple[list[str], str]:
        """Statements and the returned expression of the body, whose block parameter is `arg`."""
        lines = []
        v = arg
        if self.f["static_capture"]:
            lines.append(f"{v} = jax.lax.dynamic_slice_in_dim({v}, 0, n, axis=-1)")
        if self.f["inner_vmap"] == "in_body":
            expr = f"jax.vmap(lambda r: {self.core('r')})({v})"
        else:
            expr = self.core(v)
        extra = self.f["extra"]
        if extra in ("operand_scalar", "capture_batched", "capture_unbatched", "pytree"):
            expr = f"({expr}) * {extra_param}"
        elif extra == "capture_derived":
            expr = f"({expr}) * s"
        elif extra == "operand_like":
            expr = f"({expr}) + {extra_param}"
        elif extra == "operand_unbatched":
            # a collective over an operand the spmd vmap does not batch (in_axes None): JAX runs it correctly
            expr = f"({expr}) * jax.lax.psum({extra_param}, {self.name(self.p.coll_axis, 'coll')})"
        if self.f["mesh_read"] not in ("none", "placement_axis_names"):
            expr = f"({expr}) + N"
        return lines, expr

    def mesh_read_line(self) -> str | None:
        m = self.mesh
        read = self.f["mesh_read"]
        if read == "shape_key":
            return f"N = {m}.shape[{self.name(self.p.names[0], 'spec')}]"
        if read == "size":
            return f"N = {m}.size"
        if read == "devices_shape0":
            return f"N = {m}.devices.shape[0]"
        if read == "devices_unpack":
            targets = ", ".join(f"n{i}" for i in range(len(self.p.names)))
            return f"{targets}{',' if len(self.p.names) == 1 else ''} = {m}.devices.shape\n    N = n0"
        if read == "len_shape":
            return f"N = len({m}.shape)"
        if read == "len_axis_names":
            return f"N = len({m}.axis_names)"
        if read == "iter_shape":
            return f"N = sum(1 for _ in {m}.shape)"
        return None

    # --- the functions ---------------------------------------------------------------------------
    def functions(self) -> list[str]:
        f, p, pre = self.f, self.p, self.pre
        two_args = f["extra"] != "none"
        operand = f["extra"] in ("operand_scalar", "operand_like", "pytree", "operand_unbatched")
        cv = f["check_vma"]
        spelling = f["shard_map"]
        if (self.ref and spelling == "experimental") or (p.outer_entries and spelling != "lambda"):
            spelling = "call"
        x_spec = self.spec(p.entries)
        out_spec = x_spec
        if f["extra"] == "operand_like":
            w_spec = x_spec
        else:
            w_spec = self.spec([])
        if f["extra"] == "pytree":
            in_specs = "({" + f"'a': {x_spec}, 'b': {w_spec}" + "},)"
        elif operand:
            in_specs = f"({x_spec}, {w_spec})"
        else:
            in_specs = x_spec if f["spec_style"] != "const" or self.ref else "SPEC"
        if not self.ref and f["spec_style"] == "const":
            if operand and f["extra"] != "pytree":
                in_specs = f"(SPEC, {w_spec})" if f["extra"] != "operand_like" else "(SPEC, SPEC)"
            out_spec = "SPEC"
        kwargs = []
        # partial-manual axis_names with check_vma=False makes JAX reject out_specs without any vmap (measured)
        axis_names = f["axis_names"] if not p.outer_entries and cv is not False else "none"
        # the program's spelling decides (the reference writes jax.shard_map for jax.experimental's, which takes
        # no axis_names: giving the reference one would make it partial-manual alone; fuzz seed 5217)
        if axis_names != "none" and f["shard_map"] != "experimental":
            axes = [a for e in p.entries for a in _axes(e)] or [p.names[0]]
            if axis_names == "spec_and_spmd" and not self.ref:
                axes += [a for a in p.spmd if a not in axes]
            collects = f["op"] in ("psum", "pmean", "axis_index") or f["extra"] == "operand_unbatched"
            if collects and p.coll_axis not in axes:
                axes.append(p.coll_axis)
            kwargs.append("axis_names={" + ", ".join(self.name(a, "spec") for a in axes) + "}")
        if cv != "omitted":
            kwargs.append(f"check_rep={cv}" if spelling == "experimental" else f"check_vma={cv}")

        lines: list[str] = []
        # body
        if f["extra"] == "pytree":
            params, arg, extra_param = "d", "d['a']", "d['b']"
        elif operand:
            params, arg, extra_param = "b, w", "b", "w"
        else:
            params, arg, extra_param = "b", "b", "w"
        stmts, expr = self.body_lines(arg, extra_param)
        captures_local = f["extra"] in ("capture_batched", "capture_unbatched", "capture_derived") or \
            f["static_capture"] or (f["mesh_read"] not in ("none", "placement_axis_names")
                                    and f["mesh_read_where"] == "block")
        # a shard_map nested in another takes the context mesh the outer one sets (passing `mesh=` raises)
        mesh_kw = [] if p.outer_entries else [f"mesh={self.mesh}"]
        spec_kw = f"in_specs={in_specs}, out_specs={out_spec}"
        sm_kwargs = ", ".join([*mesh_kw, spec_kw, *kwargs])
        body_def = []
        if spelling == "decorator":
            body_def.append(f"@functools.partial(jax.shard_map, {sm_kwargs})")
        body_def.append(f"def {pre}body({params}):")
        body_def += [f"    {s}" for s in stmts] + [f"    return {expr}"]

        def shard_map_of(fn: str) -> str:
            if spelling == "experimental":
                extra_kw = f", {kwargs[-1]}" if cv != "omitted" else ""
                return f"exp_shard_map({fn}, {self.mesh}, {in_specs}, {out_spec}{extra_kw})"
            return f"jax.shard_map({fn}, {sm_kwargs})"

        call_args = "({'a': x, 'b': w})" if f["extra"] == "pytree" else ("(x, w)" if operand else "(x)")
        if spelling == "decorator":
            applied = f"{pre}body{call_args}"
        elif spelling == "lambda" and not stmts:
            applied = f"{shard_map_of(f'lambda {params}: {expr}')}{call_args}"
        else:
            applied = f"{shard_map_of(f'{pre}body')}{call_args}"
        if f["jit"] == "jit_shard_map" and not self.ref and spelling != "decorator":
            applied = f"jax.jit({applied[: -len(call_args)]}){call_args}"
        nested_def: list[str] = []
        if p.outer_entries:
            # nested: the shard_map above is the inner one; an outer shard_map over the first axis applies it
            outer_spec = self.spec(p.outer_entries)
            inner_axes = "{" + ", ".join(self.name(a, "spec") for e in p.entries for a in _axes(e)) + "}"
            outer_axes = "{" + ", ".join(self.name(a, "spec") for e in p.outer_entries for a in _axes(e)) + "}"
            applied = applied.replace(f"out_specs={out_spec}", f"out_specs={out_spec}, axis_names={inner_axes}", 1)
            outer_cv = f", check_vma={cv}" if cv != "omitted" else ""
            nested_def = [f"def {pre}outer(x{', w' if operand else ''}):", f"    return {applied}"]
            outer_params = "(x, w)" if operand else "(x)"
            applied = (f"jax.shard_map({pre}outer, mesh={self.mesh}, in_specs="
                       f"{'(' + outer_spec + ', P())' if operand else outer_spec}, out_specs={outer_spec}, "
                       f"axis_names={outer_axes}{outer_cv}){outer_params}")
        if (spelling != "lambda" or stmts) and not captures_local:
            # a body that closes over locals of the block function is defined there instead
            lines = body_def + ["", ""] + lines
        block_params = "x, w" if two_args else "x"
        block = []
        if f["jit"] == "jit_block" and not self.ref:
            block.append("@jax.jit")
        block.append(f"def {pre}block({block_params}):")
        explicit = f["mesh_spelling"] in ("make_mesh", "make_mesh_explicit")
        # JAX accepts with_sharding_constraint only over Auto axes (measured): none on an Explicit mesh
        if f["constraint"] != "none" and not self.ref and not explicit:
            c_entries = [p.names[0]] if f["constraint"] == "a0" else (p.entries or [None])
            c_entries = c_entries[: p.block_rank]
            block.append(f"    x = jax.lax.with_sharding_constraint(x, NamedSharding({self.mesh}, "
                         f"{self.spec(c_entries, 'P')}))")
        if f["extra"] == "capture_derived":
            block.append("    s = jnp.exp(w)")
        if f["static_capture"]:
            last = p.entries[-1] if len(p.entries) == p.block_rank else None
            axes = _axes(last) + (_axes(p.outer_entries[-1]) if p.outer_entries else [])
            k = " * ".join(f"{self.mesh}.shape[{self.name(a, 'spec')}]" for a in axes) or "1"
            block.append(f"    n = x.shape[-1] // ({k})")
        read = self.mesh_read_line()
        if read and f["mesh_read_where"] == "block":
            block.append(f"    {read}")
        if captures_local and (spelling != "lambda" or stmts):
            block += ["    " + line if line else "" for line in body_def]
        block += ["    " + line for line in nested_def]
        block.append(f"    return {applied}")
        lines += block + ["", ""]
        apply_params = block_params
        if f["inner_vmap"] == "between":
            axes = "(0, None)" if two_args and f["extra"] != "operand_like" else "0"
            lines += [f"def {pre}apply({apply_params}):",
                      f"    return jax.vmap({pre}block, in_axes={axes})({apply_params})", "", ""]
        else:
            lines += [f"def {pre}apply({apply_params}):", f"    return {pre}block({apply_params})", "", ""]
        if not self.ref:
            at = lines.index(f"def {pre}apply({apply_params}):")
            lines[at:at] = _vmap_decorators(p, self)
        return lines


def _mesh_expr(p: _Plan, w: _Writer) -> str:
    f = p.f
    n = 1
    for s in p.shape:
        n *= s
    devices = "jax.devices()" if n == 8 else f"jax.devices()[:{n}]"
    shape_args = ", ".join(map(str, p.shape))
    shape_tuple = f"({shape_args}{',' if len(p.shape) == 1 else ''})"
    names = "(" + ", ".join(w.name(a, "mesh") for a in p.names) + ("," if len(p.names) == 1 else "") + ")"
    spelling = "reshape" if w.ref else f["mesh_spelling"]
    if spelling == "array":
        if len(p.shape) == 1:
            return f"Mesh(np.array({devices}), {names})"
        spelling = "reshape"
    if spelling == "reshape":
        return f"Mesh(np.array({devices}).reshape({shape_args}), {names})"
    if spelling == "reshape_tuple":
        return f"Mesh(np.array({devices}).reshape({shape_tuple}), {names})"
    if spelling == "keywords":
        return f"Mesh(devices=np.array({devices}).reshape({shape_args}), axis_names={names})"
    if spelling == "make_mesh":
        return f"jax.make_mesh({shape_tuple}, {names})"
    kind = "Auto" if spelling == "make_mesh_auto" else "Explicit"
    if spelling == "make_mesh_auto":
        types = f"(AxisType.{kind},) * {len(p.shape)}"
    else:
        types = "(" + ", ".join(f"AxisType.{kind}" for _ in p.shape) + ("," if len(p.shape) == 1 else "") + ")"
    return f"jax.make_mesh({shape_tuple}, {names}, axis_types={types})"


def render(features: dict, title: str = "") -> str:
    """The source of the program with these features (missing ones take their defaults)."""
    p = _plan(features)
    f = p.f
    prog, ref = _Writer(p, False), _Writer(p, True)
    out = [f'"""{title or "generated program"}: {describe(f) or "defaults"}."""']
    if f["shard_map"] == "decorator" or f["vmap_form"] != "call":
        out.append("import functools")
    out += ["import jax", "import jax.numpy as jnp", "import numpy as np"]
    if f["shard_map"] == "experimental":
        out.append("from jax.experimental.shard_map import shard_map as exp_shard_map")
    out.append("from jax.sharding import Mesh, NamedSharding, PartitionSpec as P")
    if f["mesh_spelling"] in ("make_mesh_auto", "make_mesh_explicit"):
        out.append("from jax.sharding import AxisType")
    out += ["", ""]
    if f["consts"] != "none":
        for a in p.names:
            out.append(f"{_CONST_NAMES[a]} = {a!r}")
        out.append("")
    out.append(f"mesh = {_mesh_expr(p, prog)}")
    out.append(f"ref_mesh = {_mesh_expr(p, ref)}")
    if f["spec_style"] == "const":
        out.append(f"SPEC = {prog.spec(p.entries, 'P')}")
    if f["op"] == "scalar_closure":
        out.append("SCALE = 3.0")
    if f["op"] == "array_closure":
        width = prog.block_last()
        out.append(f"W = jnp.linspace(0.5, 1.5, {width}, dtype=jnp.float32)")
    read_prog, read_ref = prog.mesh_read_line(), ref.mesh_read_line()
    if read_prog and f["mesh_read_where"] == "module":
        out.append(read_prog.replace("\n    ", "\n"))
        out.append(_ref_module_read(read_ref))
    out += ["", ""]
    out += prog.functions()
    ref_lines = ref.functions()
    if read_prog and f["mesh_read_where"] == "module":
        ref_lines = [line.replace(") + N", ") + REF_N") for line in ref_lines]
    out += ref_lines
    out += _main(p, prog)
    source = "\n".join(out).rstrip() + "\n"
    # import only what is used (a saved program then lints clean): features that degrade (a decorator or the
    # experimental API on a program without a shard_map of that form) leave their import unused
    if "NamedSharding(" not in source:
        source = source.replace("import Mesh, NamedSharding, PartitionSpec", "import Mesh, PartitionSpec", 1)
    if "functools." not in source:
        source = source.replace("import functools\n", "", 1)
    if "exp_shard_map(" not in source and "exp_shard_map," not in source and "@exp_shard_map" not in source:
        source = source.replace("from jax.experimental.shard_map import shard_map as exp_shard_map\n", "", 1)
    return source


def _ref_module_read(line: str) -> str:
    line = line.replace("\n    ", "\n")
    if "N = n0" in line:
        return line.replace("n0", "rn0").replace("n1", "rn1").replace("n2", "rn2").replace("N = rn0", "REF_N = rn0")
    return line.replace("N = ", "REF_N = ", 1)


def _in_axes(extra: str) -> str | None:
    """The spmd vmap's `in_axes` for the second argument the `extra` feature adds (None: no `in_axes`)."""
    if extra in ("operand_scalar", "capture_batched", "capture_derived", "pytree", "operand_like"):
        return "(0, 0)"
    if extra in ("capture_unbatched", "operand_unbatched"):
        return "(0, None)"
    return None


def _spmd_expr(p: _Plan, w: _Writer) -> str:
    """The spmd_axis_name expression of the program's vmap ("" when the vmap passes none)."""
    if not p.spmd:
        return ""
    names = [w.name(a, "spmd") for a in p.spmd]
    tuple_form = p.f["spmd"] in ("tuple_collide", "pair") or p.f["consts"] == "spmd_tuple"
    return "(" + ", ".join(names) + ("," if len(names) == 1 else "") + ")" if tuple_form else names[0]


def _vmap_decorators(p: _Plan, w: _Writer) -> list[str]:
    """The decorator lines of the program's `apply` when the vmap is a decorator (`vmap_form`), outermost first:
    `@jax.jit` above the vmap's for "jit_above_decorator"; none for "call"."""
    form = p.f["vmap_form"]
    if form == "call":
        return []
    spmd, in_axes = _spmd_expr(p, w), _in_axes(p.f["extra"])
    kw = ([f"in_axes={in_axes}"] if in_axes else []) + ([f"spmd_axis_name={spmd}"] if spmd else [])
    vmap = f"@functools.partial(jax.vmap, {', '.join(kw)})" if kw else "@jax.vmap"
    return (["@jax.jit"] if form == "jit_above_decorator" else []) + [vmap]


def _main(p: _Plan, w: _Writer) -> list[str]:
    f = p.f
    b = p.batch
    ex_shape = (DIM,) * p.rank
    size = b
    for s in ex_shape:
        size *= s
    shape = ", ".join(map(str, (b, *ex_shape)))
    lines = ["def main():",
             f"    xs0 = (np.arange({size}, dtype=np.float32).reshape({shape}) - {size // 3}.0) / {size // 4}.0",
             "    xs = jnp.asarray(xs0)"]
    extra = f["extra"]
    args, ref_args = "xs", "xs0"
    in_axes = _in_axes(extra)
    if extra in ("operand_scalar", "capture_batched", "capture_derived", "pytree"):
        lines.append(f"    ws0 = np.linspace(0.5, 2.0, {b}, dtype=np.float32)")
        args, ref_args = "xs, ws", "xs0, ws0"
        lines.append("    ws = jnp.asarray(ws0)")
    elif extra == "operand_like":
        lines.append("    ws0 = np.cos(xs0)")
        args, ref_args = "xs, ws", "xs0, ws0"
        lines.append("    ws = jnp.asarray(ws0)")
    elif extra in ("capture_unbatched", "operand_unbatched"):
        lines.append("    ws0 = np.float32(1.5)")
        args, ref_args = "xs, ws", "xs0, ws0"
        lines.append("    ws = jnp.asarray(ws0)")
    explicit = f["mesh_spelling"] in ("make_mesh", "make_mesh_explicit")
    placement = f["placement"]
    if placement == "auto":
        placement = "matching" if explicit else "none"
    if placement != "none":
        a0 = p.names[0]
        a1 = p.names[1] if len(p.names) > 1 else None
        if placement == "matching":
            batch_entry = None if not p.spmd else (p.spmd[0] if len(p.spmd) == 1 else tuple(p.spmd))
            inner = [None] * (p.rank - p.block_rank) + list(p.entries)
            if p.outer_entries:
                inner = [tuple(_axes(p.outer_entries[0]) + _axes(p.entries[0]))]
            entries = [batch_entry] + inner
            # an axis both on the batch and in the specs (the collision itself) can be placed once only
            taken = set(_axes(batch_entry))
            entries = [entries[0]] + [None if set(_axes(e)) & taken else e for e in entries[1:]]
        else:
            entries = {"a0": [a0], "a0_a1": [a0, a1] if a1 else [a0], "none_a0": [None, a0]}[placement]
        entries = (entries + [None] * (1 + p.rank))[: 1 + p.rank]
        lines.append(f"    xs = jax.device_put(xs, NamedSharding(mesh, {w.spec(entries, 'P')}))")
        if f["extra"] == "operand_like":
            lines.append(f"    ws = jax.device_put(ws, NamedSharding(mesh, {w.spec(entries, 'P')}))")
        elif in_axes == "(0, 0)":
            # every batched input of an spmd vmap on an Explicit mesh must be placed alike (JAX checks)
            lines.append(f"    ws = jax.device_put(ws, NamedSharding(mesh, {w.spec(entries[:1], 'P')}))")
    spmd = _spmd_expr(p, w)
    if f["vmap_form"] != "call":
        # `apply` carries the vmap as a decorator (`_vmap_decorators`); "jit_above_decorator" is its outer jit
        vmap = "jax.jit(apply)" if f["jit"] == "jit_outer" and f["vmap_form"] == "decorator" else "apply"
    elif f["spmd_spelling"] == "positional" and spmd:
        vmap = f"jax.vmap(apply, {in_axes or 0}, 0, None, None, {spmd})"
    else:
        kw = ([f"in_axes={in_axes}"] if in_axes else []) + ([f"spmd_axis_name={spmd}"] if spmd else [])
        vmap = f"jax.vmap({', '.join(['apply', *kw])})"
    if f["jit"] == "jit_outer" and f["vmap_form"] == "call":
        vmap = f"jax.jit({vmap})"
    ref_kw = f", in_axes={in_axes}" if in_axes else ""
    # the reference first: an error raised there makes the program invalid (fuzz/worker.py tells them apart)
    lines.append(f"    reference = np.asarray(jax.vmap(ref_apply{ref_kw})({ref_args}))")
    lines.append(f"    result = {vmap}({args})")
    if f["mesh_read"] == "placement_axis_names":
        mshape = ", ".join(map(str, p.shape)) + ("," if len(p.shape) == 1 else "")
        lines.append(f"    bias = jax.device_put(jnp.ones(({mshape})), NamedSharding(mesh, P(*mesh.axis_names)))")
        lines.append("    result = result + bias.sum()")
        n = 1
        for s in p.shape:
            n *= s
        lines.append(f"    reference = reference + {float(n)}")
    lines.append("    return result, reference")
    return lines
