"""spmdfix.analysis.vmap_calls: the calls of a vmapped function, their batch sizes, jit and placement."""

from __future__ import annotations

import ast
import textwrap

from spmdfix.analysis.analyzer import Analyzer
from spmdfix.analysis.kinds import BatchPlacement
from spmdfix.analysis.module_model import ModuleModel

HEADER = """\
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
def f(v):
    return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
"""


def _calls(body: str):
    source = HEADER + textwrap.dedent(body)
    facts = Analyzer(ModuleModel.build(source, ast.parse(source))).facts()
    return facts[0].calls


def test_batch_sizes_from_literals_names_and_reshapes() -> None:
    calls = _calls(
        """
        B = 4
        g = jax.vmap(f, spmd_axis_name='x')
        def main():
            a = g(jnp.ones((B * 2, 8)))
            b = g(jnp.arange(6 * 8).reshape(-1, 8))
            x = jax.random.normal(jax.random.key(0), (B, 8))
            x = jax.device_put(x, NamedSharding(mesh, P(None, 'x')))
            return a, b, g(x), g(x * 2.0), g(unknown())
        """
    )
    assert [c.batch for c in calls.calls] == [8, 6, 4, 4, None]
    assert calls.complete
    unknown, none = BatchPlacement.UNKNOWN, BatchPlacement.NONE
    assert [c.batch_placement for c in calls.calls] == [unknown, unknown, none, unknown, unknown]


def test_batch_sizes_from_the_shape_parameter_of_each_random_sampler() -> None:
    # bernoulli(key, p, shape) and truncated_normal(key, lower, upper, shape): reading argument 1 took the
    # lower bound -2 for the batch (golden/refuse/rename_batch_truncated_normal); a negative size is no shape
    calls = _calls(
        """
        g = jax.vmap(f, spmd_axis_name='x')
        k = jax.random.key(0)
        def main():
            return (g(jax.random.truncated_normal(k, -2, 2, (5, 8))), g(jax.random.bernoulli(k, 0.5, (6, 8))),
                    g(jax.random.uniform(k, (7, 8))), g(jnp.ones(-2)), g(jax.random.truncated_normal(k, -2, 2)))
        """
    )
    assert [c.batch for c in calls.calls] == [5, 6, 7, None, None]


def test_in_axes_select_the_mapped_argument() -> None:
    calls = _calls(
        """
        def h(w, v):
            return f(v) * w
        jax.vmap(h, in_axes=(None, 1), spmd_axis_name='x')(jnp.ones((3, 3)), jnp.zeros((8, 5)))
        """
    )
    assert [c.batch for c in calls.calls] == [5]


def test_jit_wrappers_decorators_and_other_uses() -> None:
    calls = _calls(
        """
        run = jax.jit(jax.vmap(f, spmd_axis_name='x'))
        @jax.jit
        def step(x):
            return run(x)
        def main():
            register(run)
            return run(jnp.ones((4, 8))), step(jnp.ones((4, 8)))
        """
    )
    assert [c.under_jit for c in calls.calls] == [True, True]
    assert [u.text for u in calls.unfollowed] == ["register(run)"]
    assert not calls.complete


def test_decorated_vmap_and_eager_call() -> None:
    calls = _calls(
        """
        @partial(jax.vmap, in_axes=(0,), spmd_axis_name='x')
        def g(v):
            return f(v)
        def main():
            return g(np.zeros((16, 8)))
        """
    )
    assert [(c.batch, c.under_jit) for c in calls.calls] == [(16, False)]


def test_no_call_is_not_complete() -> None:
    assert not _calls("g = jax.vmap(f, spmd_axis_name='x')\n").complete


def test_uses_that_only_add_calls_leave_the_calls_followed_exact() -> None:
    # `register(run)` may call `run` with other batches: the calls followed are still the program's own, as
    # written (a finding about them stands: hazards.calls_stand), though not all of them (no exemption)
    calls = _calls(
        """
        run = jax.vmap(f, spmd_axis_name='x')
        def main():
            register(run)
            return run(jnp.ones((4, 8)))
        """
    )
    assert calls.exact and not calls.complete and not calls.wrapping


def test_a_decorator_above_the_vmap_wraps_the_calls_one_below_does_not() -> None:
    # `@logged` above `@jax.vmap` stands between each call and the vmap (it may pass other arguments): the
    # calls followed are not exact (SPMD910 where they decide: unread_matters); below, it wraps the function the
    # vmap maps, and the calls reach the vmap as written
    above = _calls(
        """
        @logged
        @partial(jax.vmap, spmd_axis_name='x')
        def g(v):
            return f(v)
        def main():
            return g(np.zeros((16, 8)))
        """
    )
    assert [u.text for u in above.wrapping] == ["logged"] and not above.exact
    below = _calls(
        """
        @partial(jax.vmap, spmd_axis_name='x')
        @logged
        def g(v):
            return f(v)
        def main():
            return g(np.zeros((16, 8)))
        """
    )
    assert not below.wrapping and below.exact and not below.complete
