"""One finding per place and message: findings equal in every field (code, place, message, related places,
fixes with their edits, refusals) are reported once (`plan._distinct`); findings that differ in anything a
user or a fix sees stay apart (newuser15: SPMD006 of one spec helper used for `in_specs` and `out_specs`
printed two identical lines)."""

from __future__ import annotations

import textwrap

from spmdfix import api

HELPER = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp
    from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

    EMESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Explicit,) * 2)


    def rows():
        return P('data', None)


    def double(x):
        return jax.shard_map(lambda b: b * 2.0, mesh=EMESH, in_specs=rows(), out_specs=rows())(x)


    def main():
        with jax.set_mesh(EMESH):
            xs = jax.device_put(jnp.zeros((2, 8, 4)), NamedSharding(EMESH, P('data')))
            return jax.vmap(double)(xs)
""")


def _row_col(source: str, f) -> tuple[int, int]:
    before = source[: f.span.start]
    return before.count("\n") + 1, len(before) - before.rfind("\n")


def test_spmd006_of_a_helper_used_for_in_and_out_specs_is_one_finding() -> None:
    found = api.check_source(HELPER)
    assert [(f.code, _row_col(HELPER, f)) for f in found] == [("SPMD006", (9, 14))]
    assert found[0].fixes  # (its strip, unsafe: the helper's other calls would see it)


def test_a_second_plain_vmap_of_the_helper_keeps_its_own_finding() -> None:
    # the same entry and message, but another vmap (another related place, another move-placement): two
    text = HELPER + textwrap.dedent("""\


        def other():
            with jax.set_mesh(EMESH):
                ys = jax.device_put(jnp.ones((2, 8, 4)), NamedSharding(EMESH, P('data')))
                return jax.vmap(double)(ys)
    """)
    found = api.check_source(text)
    assert [f.code for f in found] == ["SPMD006", "SPMD006"]
    assert found[0].message == found[1].message and found[0].span == found[1].span
    assert found[0].related != found[1].related


def test_spmd001_and_spmd002_of_one_entry_stay_apart() -> None:
    text = HELPER.replace("AxisType.Explicit", "AxisType.Auto").replace(
        "jax.vmap(double)(xs)", "jax.vmap(double, spmd_axis_name='data')(xs)"
    )
    found = api.check_source(text)
    assert sorted((f.code, _row_col(text, f)) for f in found) == [("SPMD001", (9, 14)), ("SPMD002", (9, 14))]


def test_a_spec_named_twice_in_in_specs_is_one_finding_with_its_fix() -> None:
    text = textwrap.dedent("""\
        import jax
        from jax.sharding import PartitionSpec as P

        MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(jax.sharding.AxisType.Auto,) * 2)


        def apply(x, s):
            spec = P('x', 'y')
            return jax.shard_map(lambda a, b: a * b, mesh=MESH, in_specs=(spec, spec), out_specs=P(None, 'y'))(x, s)


        f = jax.vmap(apply, in_axes=(0, None), spmd_axis_name='x')
    """)
    found = [f for f in api.check_source(text) if f.code == "SPMD001"]
    assert [_row_col(text, f) for f in found] == [(8, 14)]
    assert [fix.transform for fix in found[0].fixes]  # the one kept still offers the site's fixes
