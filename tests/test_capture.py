"""SPMD003 and lift-captures: static values, jit-wrapped shard_maps, unbatched arrays, the lift allowlist."""

from __future__ import annotations

import textwrap

from spmdfix.api import Options, check_source, fix_source
from spmdfix.model import Applicability, Transform

HEADER = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
"""


def _check(body: str):
    return check_source(HEADER + textwrap.dedent(body))


def _captures(body: str):
    return [f for f in _check(body) if f.code == "SPMD003"]


def test_shape_derived_values_are_static_not_captures() -> None:
    found = _captures(
        """
        def f(x):
            n = x.shape[0] // mesh.shape['y']
            k = len(x) * 2 + x.ndim
            return jax.shard_map(
                lambda t: jax.lax.dynamic_slice_in_dim(t, 0 * n, k), mesh=mesh, in_specs=P('y'), out_specs=P('y')
            )(x)
        jax.vmap(f, spmd_axis_name='x')
        """
    )
    assert found == []


def test_a_static_read_next_to_a_value_read_still_taints() -> None:
    found = _captures(
        """
        def f(x):
            s = x * x.shape[0]
            return jax.shard_map(lambda t: t + s, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """
    )
    assert [f.message.split("`")[1] for f in found] == ["s"]


def test_static_reads_of_arrays_built_from_the_batch_are_no_captures() -> None:
    # measured: safety/measurements/static_reads.py (each form is a Python int under jit(vmap))
    found = _captures(
        """
        def f(x):
            a = x[0:8].shape[0] // mesh.shape['y']
            b = (x * 2).shape[0] + x.T.shape[0] + x.reshape(2, 8).shape[1] + jnp.sin(x).size
            c = jnp.shape(x)[0] + np.shape(x)[0] + jnp.size(x) + np.size(x) + jnp.ndim(x) + np.ndim(x)
            d = len(x[1:]) + len(jnp.sin(x))
            return jax.shard_map(
                lambda t: jax.lax.dynamic_slice_in_dim(t, 0, a + b + c + d), mesh=mesh, in_specs=P('y'),
                out_specs=P('y'),
            )(x)
        jax.vmap(f, spmd_axis_name='x')
        """
    )
    assert found == []


def test_a_value_that_escapes_before_a_static_read_still_taints() -> None:
    # the walrus binds the batched value itself; jnp.sum returns a value, not a shape; a lambda returns x
    found = _captures(
        """
        def f(x):
            a = (s := x * 2).shape[0]
            b = jnp.sum(x)
            c = (lambda: x)
            e = jnp.shape(x, ) if False else jnp.asarray(x).sum()
            return jax.shard_map(lambda t: t + s + b + c() + e, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """
    )
    assert sorted(f.message.split("`")[1] for f in found) == ["b", "c", "e", "s"]


def test_reading_only_the_shape_of_a_batched_value_is_no_capture() -> None:
    assert not _captures(
        """
        def f(w, x):
            return jax.shard_map(lambda t: t * w.shape[0], mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """
    )


def test_jit_of_shard_map_makes_captures_operands() -> None:
    source = """
        def f(w, x):
            return jax.jit(jax.shard_map(lambda t: t + w, mesh=mesh, in_specs=P('y'), out_specs=P('y')))(x)
        jax.vmap(f, spmd_axis_name='x')
        """
    assert not _captures(source)
    assert _captures(source.replace("jax.jit(jax.shard_map", "(jax.shard_map"))


_STACKED = """
from functools import partial
{above}
@partial(jax.vmap, spmd_axis_name='x')
{below}
def f(a):
    s = a.mean()
    return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs={spec}, out_specs={spec}{extra})(a)
"""


def test_a_jit_stacked_above_the_vmap_decorator_does_not_hide_a_capture() -> None:
    # Decorators apply bottom-up: a jit above the vmap decorator wraps the vmap (`jax.jit(jax.vmap(f))`) and the
    # capture fails as it does eagerly; one below it is inside (`jax.vmap(jax.jit(f))`) and runs. Measured for
    # check_vma True and False and specs P() and P(axis): safety/measurements/capture_jit_above_vmap.py.
    for above in ("@jax.jit", "@partial(jax.jit, donate_argnums=0)", "@jax.jit\n@jax.named_call"):
        for spec, extra in (("P('y')", ""), ("P()", ""), ("P('y')", ", check_vma=False"), ("P()", ", check_vma=False")):
            source = _STACKED.format(above=above, below="", spec=spec, extra=extra)
            assert [f.message.split("`")[1] for f in _captures(source)] == ["s"], (above, spec, extra)
            inside = _STACKED.format(above="", below=above.split("\n")[0], spec=spec, extra=extra)
            assert _captures(inside) == [], (above, spec, extra)


def test_a_fix_that_leaves_the_capture_under_an_outer_jit_is_not_safe() -> None:
    # Issue 23 kind 4: the constraint's fix alone leaves the capture (now seen under the outer jit): it is unsafe,
    # and applied anyway the fixed text still has the SPMD003 finding; auto fixes both and is safe.
    source = HEADER + textwrap.dedent(
        """
        from functools import partial
        from jax.sharding import NamedSharding
        @jax.jit
        @partial(jax.vmap, spmd_axis_name='x')
        def f(a):
            a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P('x')))
            s = a.mean()
            return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P(), out_specs=P())(a)
        def main():
            return f(jnp.ones((8, 8)))
        """
    )
    constraint = next(f for f in check_source(source) if f.code == "SPMD005")
    for transform in (Transform.RENAME, Transform.STRIP):
        fix = constraint.fix_for(transform)
        assert fix is not None and fix.applicability == Applicability.UNSAFE, transform
        assert "alone it leaves SPMD003: the capture of `s`" in fix.reason
        forced = fix_source(source, Options(strategy=transform, unsafe_fixes=True))
        assert [f.transform for f in forced.applied] == [transform]
        assert [f.code for f in forced.remaining] == ["SPMD003"]
        assert [f.code for f in check_source(forced.source)] == ["SPMD003"]
    result = fix_source(source, Options())
    assert {f.transform for f in result.applied} == {Transform.LIFT_CAPTURES, Transform.RENAME}
    assert all(f.applicability == Applicability.SAFE for f in result.applied)
    assert not result.remaining and check_source(result.source) == []


def test_unbatched_array_only_with_replicated_specs_and_check_vma() -> None:
    template = """
        W = np.linspace(0.5, 1.5, 8)
        S = np.float32(2.0)
        def f(a):
            return jax.shard_map(lambda b: b * {name}, mesh=mesh, in_specs={spec}, out_specs={spec}{extra})(a)
        jax.vmap(f, spmd_axis_name='x')(np.ones((8, 8), np.float32))
        """
    # (an example of rank 1 meets W of rank 1: the broadcast exemption does not hold; without a call of the
    # vmap the block's rank is not read, an SPMD910 record: test_unresolved)
    hit = _captures(template.format(name="W", spec="P()", extra=""))
    assert [(f.message.split("`")[1], "does not batch" in f.message) for f in hit] == [("W", True)]
    assert not _captures(template.format(name="S", spec="P()", extra=""))
    assert not _captures(template.format(name="W", spec="P('y')", extra=""))
    assert not _captures(template.format(name="W", spec="P()", extra=", check_vma=False"))
    assert not _captures(template.format(name="W.shape[0]", spec="P()", extra=""))


def _lift(findings):
    (finding,) = [f for f in findings if f.code == "SPMD003"]
    return finding.fix_for(Transform.LIFT_CAPTURES), finding.refusals


def test_a_use_off_the_allowlist_makes_the_lift_unsafe_and_names_it() -> None:
    fix, _ = _lift(
        _check(
            """
            def f(w, x):
                return jax.shard_map(
                    lambda t: jax.lax.dynamic_slice_in_dim(t, 0, w) + w, mesh=mesh, in_specs=P('y'), out_specs=P('y')
                )(x)
            jax.vmap(f, spmd_axis_name='x')
            """
        )
    )
    assert fix.applicability == Applicability.UNSAFE
    assert "`jax.lax.dynamic_slice_in_dim(t, 0, w)` (line 9)" in fix.reason


def test_allowed_uses_keep_the_lift_safe() -> None:
    fix, _ = _lift(
        _check(
            """
            def f(w, x):
                def body(t):
                    u = jnp.tanh(w) * 2.0
                    return jnp.where(t > 0, t * u, -t) + w.sum() + w[0]
                return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
            jax.vmap(f, spmd_axis_name='x')
            """
        )
    )
    assert fix.applicability == Applicability.SAFE


def test_body_structures_off_the_allowlist_are_refused() -> None:
    cases = {
        "decorated": (
            """
            def f(w, x):
                @jax.checkpoint
                def body(t):
                    return t + w
                return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
            """,
            "decorated",
        ),
        "defaults": (
            """
            def f(w, x):
                return jax.shard_map(lambda t, k=2: t + w, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
            """,
            "defaults",
        ),
        "vmap_in_axes": (
            """
            def f(w, x):
                return jax.shard_map(
                    jax.vmap(lambda t: t + w, in_axes=1), mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False
                )(x)
            """,
            "in_axes",
        ),
    }
    for name, (source, word) in cases.items():
        fix, refusals = _lift(_check(source + "jax.vmap(f, spmd_axis_name='x')\n"))
        assert fix is None, name
        assert any(word in r.reason for r in refusals if r.transform == Transform.LIFT_CAPTURES), name


def _drop(source: str, header: str = HEADER):
    findings = check_source(header + textwrap.dedent(source))
    return [(f.fix_for(Transform.DROP_SPMD_AXIS), f.refusals) for f in findings if f.code == "SPMD001"]


def test_drop_spmd_axis_is_last_safe_on_auto_meshes_and_refused_on_explicit_ones() -> None:
    source = """
        def f(v):
            return jax.shard_map(lambda t: t, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
        jax.vmap(f, spmd_axis_name='x')
        """
    ((fix, _),) = _drop(source)
    # issue 24: the class says whether values are kept (measured on an Auto mesh); the layout change is said
    # in the reason
    assert fix.applicability == Applicability.SAFE and "no longer placed" in fix.reason
    findings = check_source(HEADER + textwrap.dedent(source))
    assert findings[0].fixes[-1].transform == Transform.DROP_SPMD_AXIS
    explicit = HEADER.replace("Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))", "jax.make_mesh((2, 4), ('x', 'y'))")
    ((fix, refusals),) = _drop(source, explicit)
    assert fix is None
    assert any(r.transform == Transform.DROP_SPMD_AXIS and "Explicit" in r.reason for r in refusals)


def test_drop_spmd_axis_on_an_unresolved_mesh_says_so() -> None:
    ((fix, _),) = _drop(
        """
        def f(v, m):
            return jax.shard_map(lambda t: t, mesh=m, in_specs=P('x'), out_specs=P('x'))(v)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """
    )
    assert "not known to be Auto" in fix.reason
    assert fix.applicability == Applicability.UNSAFE


def test_nested_shard_maps_refuse_rename_add_axis_and_strip() -> None:
    findings = _check(
        """
        def inner(b):
            return jax.shard_map(lambda t: t, in_specs=P(None, 'y'), out_specs=P(None, 'y'), axis_names={'y'})(b)
        def f(v):
            return jax.shard_map(inner, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(v)
        jax.vmap(f, spmd_axis_name='x')
        """
    )
    assert findings
    for finding in findings:
        assert [f.transform for f in finding.fixes] == [Transform.DROP_SPMD_AXIS]
        refused = {r.transform for r in finding.refusals if "applies another shard_map" in r.reason}
        assert refused == {Transform.RENAME, Transform.ADD_AXIS, Transform.STRIP}


def test_a_chain_started_by_an_unsafe_fix_is_applied_as_unsafe() -> None:
    # Explicit mesh: drop-spmd-axis is refused, so auto --unsafe-fixes sets check_vma=False (unsafe) in the
    # first pass, which makes lift-captures offered as safe in the second: the chain is judged as a whole.
    source = HEADER.replace("Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))", "jax.make_mesh((2, 4), ('x', 'y'))")
    source += textwrap.dedent(
        """
        def f(w, x):
            return jax.shard_map(jax.vmap(lambda r: r * w), mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, 'y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """
    )
    result = fix_source(source, Options(unsafe_fixes=True))
    assert [f.transform for f in result.applied] == [Transform.DISABLE_CHECK_VMA, Transform.LIFT_CAPTURES]
    lift = result.applied[1]
    assert lift.applicability == Applicability.UNSAFE
    assert lift.reason.startswith("applied after an unsafe fix of the same shard_map")
    assert "in_axes=(0, None)" in result.source and "check_vma=False" in result.source
    # Without --unsafe-fixes the chain never starts.
    assert not fix_source(source, Options()).applied


def test_a_chosen_drop_spmd_axis_is_the_only_fix_of_its_site() -> None:
    source = HEADER + textwrap.dedent(
        """
        def f(w, x):
            return jax.shard_map(jax.vmap(lambda r: r * w), mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, 'y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """
    )
    result = fix_source(source, Options(unsafe_fixes=True))
    assert [f.transform for f in result.applied] == [Transform.DROP_SPMD_AXIS]
    assert "check_vma" not in result.source


def test_an_array_closure_without_operands_is_no_capture() -> None:
    assert not _captures(
        """
        W = np.linspace(0.5, 1.5, 8)
        def f(a):
            return a + jax.shard_map(lambda: W * 2, mesh=mesh, in_specs=(), out_specs=P())()
        jax.vmap(f, spmd_axis_name='x')
        """
    )


def test_an_array_only_reduced_to_a_scalar_is_no_capture() -> None:
    source = """
        W = np.linspace(0.5, 1.5, 8)
        def f(a):
            return jax.shard_map(lambda b: b + {use}, mesh=mesh, in_specs=P(), out_specs=P())(a)
        jax.vmap(f, spmd_axis_name='x')
        """
    assert not _captures(source.format(use="jnp.sin(W.sum()) + jnp.mean(W)"))
    assert _captures(source.format(use="W.sum(axis=0) * W"))


def test_a_capture_left_unfixed_makes_the_other_fixes_of_its_site_unsafe() -> None:
    source = HEADER + textwrap.dedent(
        """
        def f(w, x):
            return jax.shard_map(lambda b{extra}: b + w, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """
    )
    # The capture can be lifted: auto lifts it first, then the collision's fix is safe again.
    result = fix_source(source.format(extra=""), Options())
    assert [f.transform for f in result.applied] == [Transform.LIFT_CAPTURES, Transform.ADD_AXIS]
    assert all(f.applicability == Applicability.SAFE for f in result.applied)
    # It cannot (a parameter with a default): fixing the collision alone would leave it failing.
    blocked = check_source(source.format(extra=", k=1.0"))
    add_axis = next(f for f in blocked if f.code == "SPMD001").fix_for(Transform.ADD_AXIS)
    assert add_axis.applicability == Applicability.UNSAFE
    assert "alone it leaves SPMD003: the capture of `w` (line 8)" in add_axis.reason
    # issue 24: removing spmd_axis_name cures both on this Auto mesh (safe, measured), so auto applies that
    # instead of leaving the file unchanged
    applied = fix_source(source.format(extra=", k=1.0"), Options()).applied
    assert [(f.transform, f.applicability) for f in applied] == [(Transform.DROP_SPMD_AXIS, Applicability.SAFE)]


_EXPLICIT = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P
mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types={types})
other = jax.make_mesh((2, 4), ('x', 'y'))

def block(x, w):
    return jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P('x'), out_specs=P('x'){extra})(x)

def main():
    xs = jax.device_put(jnp.ones((8, 8)), NamedSharding({xmesh}, P({xspec})))
    ws = jax.device_put(jnp.ones(8), NamedSharding({xmesh}, P({wspec})))
    return jax.vmap(block, in_axes=(0, 0), spmd_axis_name='y')(xs, ws)
"""


def _explicit_captures(types="(AxisType.Explicit,) * 2", xspec="'y', 'x'", wspec="'y'", extra="", xmesh="mesh"):
    source = _EXPLICIT.format(types=types, xspec=xspec, wspec=wspec, extra=extra, xmesh=xmesh)
    return [f for f in check_source(source) if f.code == "SPMD003"]


def test_no_capture_finding_when_the_batch_is_placed_on_the_explicit_spmd_axis() -> None:
    # measured: safety/measurements/capture_explicit_mesh.py (runs with check_vma on, eager and under jit)
    assert _explicit_captures() == []
    assert _explicit_captures(types="(AxisType.Explicit, AxisType.Explicit)") == []
    # a mixed mesh whose spmd axis 'y' is Explicit runs too; the block need not be placed on the Auto 'x'
    assert _explicit_captures(types="(AxisType.Auto, AxisType.Explicit)", xspec="'y', None") == []


def test_the_capture_is_still_reported_off_the_measured_condition() -> None:
    # the spmd axis Auto (on a mixed mesh too): `Closing over inputs to shard_map` / ManualAxisType
    assert len(_explicit_captures(types="(AxisType.Auto,) * 2")) == 1
    assert len(_explicit_captures(types="(AxisType.Explicit, AxisType.Auto)")) == 1
    # check_vma=False fails (a lowering error under jit, out_specs error eager)
    assert len(_explicit_captures(extra=", check_vma=False")) == 1
    # the batch placed on another axis, on more axes than the spmd axis, or only some inputs placed
    assert len(_explicit_captures(xspec="'x', None", wspec="'x'")) == 1
    assert len(_explicit_captures(xspec="('y', 'x'), None", wspec="('y', 'x')")) == 1
    assert len(_explicit_captures(wspec="None")) == 1
    # placed on another mesh object than the shard_map's: not followed as the same mesh
    assert len(_explicit_captures(xmesh="other")) == 1
    # axis types spmdfix cannot read per axis
    assert len(_explicit_captures(types="TYPES")) == 1


def test_a_check_vma_not_known_to_be_on_keeps_the_capture_finding() -> None:
    # check_vma through a constant bound to False: read as False (measured to fail: lowering error under jit,
    # out_specs error eager; golden/lift-captures/explicit_batch_placed_check_vma_constant)
    source = "CV = False\n" + _EXPLICIT.format(
        types="(AxisType.Explicit,) * 2", xspec="'y', 'x'", wspec="'y'", extra=", check_vma=CV", xmesh="mesh"
    )
    assert len([f for f in check_source(source) if f.code == "SPMD003"]) == 1
    # a check_vma spmdfix cannot read (a parameter of the function) is not known to be on: still reported
    source = _EXPLICIT.format(
        types="(AxisType.Explicit,) * 2", xspec="'y', 'x'", wspec="'y'", extra=", check_vma=cv", xmesh="mesh"
    ).replace("def block(x, w):", "def block(x, w, cv=False):")
    assert len([f for f in check_source(source) if f.code == "SPMD003"]) == 1


def test_a_batched_capture_under_replicated_specs_is_still_reported_when_the_batch_is_placed() -> None:
    # measured to fail eager and under jit (`For primitive mul, context mesh ...`):
    # golden/lift-captures/explicit_batch_placed_replicated_specs; the exemption was measured with specs naming
    # the data axis only (and an unbatched array under P(), which stays exempt)
    source = _EXPLICIT.format(types="(AxisType.Explicit,) * 2", xspec="'y', None", wspec="'y'", extra="", xmesh="mesh")
    source = source.replace("in_specs=P('x'), out_specs=P('x')", "in_specs=P(), out_specs=P()")
    assert [f.message.split("`")[1] for f in check_source(source) if f.code == "SPMD003"] == ["w"]


def test_a_call_that_is_not_followed_makes_the_capture_exemption_a_record() -> None:
    # The call followed places the batch where the capture runs (exempt); `run(f)` may call the vmap otherwise,
    # which is not known: an SPMD910 record, neither a finding (a guess that JAX fails: the same exemption
    # required every call followed, and gave findings on programs that run whenever the importers were not
    # known) nor silence.
    from spmdfix.api import analyse_source

    source = _EXPLICIT.format(types="(AxisType.Explicit,) * 2", xspec="'y', 'x'", wspec="'y'", extra="", xmesh="mesh")
    source += "\nf = jax.vmap(block, in_axes=(0, 0), spmd_axis_name='y')\nrun(f)\n"
    source = source.replace("return jax.vmap(block, in_axes=(0, 0), spmd_axis_name='y')(xs, ws)", "return f(xs, ws)")
    assert [f for f in check_source(source) if f.code == "SPMD003"] == []
    records = analyse_source(source).unfollowed
    assert any("may call it too" in r.what for r in records)


_BROADCAST = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = {w}

def block(x):
    x = jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P('y')))
    return jax.shard_map(lambda b: {expr}, mesh=mesh, in_specs=P(), out_specs=P())(x)

def apply(x):
    return block(x)

def main():
    xs = {xs}
    return jax.vmap(apply, spmd_axis_name='x')(xs)
"""


def _array_captures(expr="b * W", w="jnp.linspace(0.5, 1.5, 8)", xs="jnp.ones((8, 4, 8))"):
    source = _BROADCAST.format(expr=expr, w=w, xs=xs)
    return [f.message.split("`")[1] for f in check_source(source) if f.code == "SPMD003"]


def test_an_array_broadcast_to_a_higher_rank_operand_is_no_capture() -> None:
    # measured: safety/measurements/capture_array_broadcast.py (rank 2 block, rank 1 W: runs eager and jit)
    assert _array_captures() == []
    assert _array_captures(expr="W * (b * 2.0 + 1.0) - W / (b * b + 1.0)") == []
    assert _array_captures(w="jnp.array([[1.0, 2.0], [3.0, 4.0]])", xs="jnp.zeros((8, 3, 2, 2))") == []
    assert _array_captures(xs="(np.arange(256, dtype=np.float32).reshape(8, 4, 8) - 3.0) / 4.0") == []
    assert _array_captures(w="np.arange(8) * 0.5", xs="jax.random.normal(jax.random.key(0), (8, 2, 8))") == []
    assert _array_captures(w="np.arange(8.0)") == ["W"]  # a float arange's length is not read: W's rank unknown


def test_an_array_of_the_same_or_a_higher_rank_is_still_a_capture() -> None:
    # same rank fails (ManualAxisType), also with size-1 dimensions; so does a W of higher rank
    assert _array_captures(xs="jnp.ones((8, 8))") == ["W"]
    assert _array_captures(w="jnp.ones((1, 8))", xs="jnp.ones((8, 4, 8))") == ["W"]
    assert _array_captures(w="jnp.ones((2, 4, 8))", xs="jnp.ones((8, 4, 8))") == ["W"]


def _rank_records(source: str) -> list[str]:
    """The SPMD910 records of `source` that stand for SPMD003's broadcast exemption (a rank not read)."""
    from spmdfix.api import analyse_source

    return [r.what for r in analyse_source(source).unfollowed if "the rank of" in r.what]


def test_an_unknown_rank_or_use_keeps_the_capture() -> None:
    # the operand's shape is not visible: whether W meets a block of higher rank is not known, an SPMD910 record
    # (a finding there was a guess: breaker11 c23, c24 run, a scalar or rank-1 W under rank-2 blocks)
    assert _array_captures(xs="load()") == []
    assert _rank_records(_BROADCAST.format(expr="b * W", w="jnp.linspace(0.5, 1.5, 8)", xs="load()"))
    assert _array_captures(w="make()") == []  # not an array constructor: no finding before either
    assert _array_captures(expr="jnp.multiply(b, W)") == ["W"]  # not a measured broadcast
    # a contraction is measured to run whatever the ranks (safety/measurements/capture_array_contraction.py) ...
    assert _array_captures(expr="jnp.dot(b, W)", xs="load()") == []
    assert _array_captures(expr="b @ W", xs="load()") == []
    # ... but not once any other use of the array remains
    assert _array_captures(expr="b @ W + W", xs="load()") == ["W"]
    assert _array_captures(expr="b * W + jnp.sum(b) * W") == ["W"]  # one use against an unknown rank
    assert _array_captures(expr="jax.vmap(lambda r: r * W)(b)") == ["W"]  # an inner vmap changes the rank


def test_the_rank_is_followed_only_through_plain_calls() -> None:
    source = _BROADCAST.format(expr="b * W", w="jnp.linspace(0.5, 1.5, 8)", xs="jnp.ones((8, 4, 8))")
    # the operand changes before the shard_map: its rank is not followed
    # (each: the exemption is undecided, an SPMD910 record stands for the finding: breaker11 c24)
    changed = source.replace("    return block(x)\n", "    return block(x.sum(0))\n")
    assert [f.code for f in check_source(changed)].count("SPMD003") == 0 and _rank_records(changed)
    # another vmap site over an operand of unknown shape (the first site alone reports nothing, above)
    other = source + "\ndef other(z):\n    return jax.vmap(apply, spmd_axis_name='x')(z)\n"
    assert [f.code for f in check_source(other)].count("SPMD003") == 0 and _rank_records(other)
    # a second call of the same vmap with an operand of unknown shape
    shared = source.replace("return jax.vmap(apply, spmd_axis_name='x')(xs)",
                            "f = jax.vmap(apply, spmd_axis_name='x')\n    f(load())\n    return f(xs)")
    assert [f.code for f in check_source(shared)].count("SPMD003") == 0 and _rank_records(shared)
    assert not _rank_records(source)  # (the plain calls' ranks are read: exempt, no record)


def test_strip_under_a_plain_vmap_is_not_safe_while_a_partial_bound_capture_remains() -> None:
    # Fuzz seed 70217 (golden refuse/strip_spmd006_partial_bound_capture): the batched `w` bound by
    # functools.partial is a capture the strip does not remove; the stripped program fails under JAX
    # (`context mesh ... should match the aval mesh`), so the strip names it and is unsafe. Bound by a closure
    # the strip was already unsafe (the body allowlist), and stays so.
    source = textwrap.dedent(
        """
        import functools
        import jax
        from jax.sharding import NamedSharding, PartitionSpec as P
        mesh = jax.make_mesh((2, 4), ('x', 'y'))
        def block(x, w):
            def body(b, w):
                return b * w
            return jax.shard_map(functools.partial(body, w=w), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        def main(xs, ws):
            xs = jax.sharding.reshard(xs, NamedSharding(mesh, P('x', None)))
            ws = jax.sharding.reshard(ws, NamedSharding(mesh, P('x')))
            return jax.vmap(block)(xs, ws)
        """
    )
    found = [f for f in check_source(source) if f.code == "SPMD006"]
    assert found
    for f in found:
        fix = f.fix_for(Transform.STRIP)
        assert fix is not None and fix.applicability == Applicability.UNSAFE
        assert "captures `w` (line 9)" in fix.reason


# Fuzz seed 120152's measured exemption (golden clean/capture_explicit_placed_inner_vmap), written as a script:
# the inputs built by one tuple assignment, then placed one by one at module level.
TUPLE_BUILT = """\
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P, AxisType
mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))
def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
def apply(x, w):
    return block(x, w)
xs, ws = jnp.ones((8, 8, 8)), jnp.ones((8,))
xs = jax.device_put(xs, NamedSharding(mesh, P('y', 'x', None)))
ws = jax.device_put(ws, NamedSharding(mesh, P(WS_SPEC)))
r = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='y')(xs, ws)
"""


def test_a_placement_after_a_tuple_assignment_is_read() -> None:
    """A name first bound by a tuple assignment (`xs, ws = a, b`) and then placed (`xs = jax.device_put(xs,
    ...)`) holds the placement at the vmap's call: the straight-line reader had given up on the tuple target, so
    the batch looked unplaced and the exemption for a batch placed on the Explicit spmd axis did not apply (a
    false positive on a program measured to run: safety/measurements/capture_explicit_placed_inner_vmap.py)."""
    from spmdfix.api import check_source

    assert check_source(TUPLE_BUILT.replace("WS_SPEC", "'y'")) == []
    # ws placed beyond its batch dimension: the capture fails, and stays reported
    beyond = check_source(TUPLE_BUILT.replace("WS_SPEC", "'y', 'x'").replace("jnp.ones((8,))", "jnp.ones((8, 8))"))
    assert [f.code for f in beyond] == ["SPMD003"]
