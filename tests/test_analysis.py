"""Detection on small programs: each case gives the expected (code, text at the finding) pairs."""

from __future__ import annotations

import textwrap

import pytest

from spmdfix.api import check_source

HEADER = """\
import functools
from functools import partial
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
"""

CASES = {
    "recursion_is_guarded": (
        """
        def a(v):
            return b(v)
        def b(v):
            if v is None:
                return a(v)
            return jax.shard_map(lambda t: t, mesh=mesh, in_specs=P('x'), out_specs=P())(v)
        jax.vmap(a, spmd_axis_name='x')
        """,
        [("SPMD001", "'x'")],
    ),
    "outer_call_is_not_a_second_shard_map": (
        """
        def f(v):
            return jax.shard_map(lambda t: t, mesh=mesh, in_specs=P('x'), out_specs=P('y'))(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD001", "'x'")],
    ),
    "module_level_jit_of_shard_map": (
        """
        step = jax.jit(jax.shard_map(lambda t: t, mesh=mesh, in_specs=P(('x', 'y')), out_specs=P()))
        def f(v):
            return step(v)
        jax.vmap(f, spmd_axis_name=('y',))
        """,
        [("SPMD001", "('x', 'y')")],
    ),
    "nested_def_and_lax_cond": (
        """
        def outer(v):
            def branch(t):
                return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('x'), out_specs=P())(t)
            return jax.lax.cond(True, branch, lambda t: t, v)
        jax.vmap(outer, spmd_axis_name='x')
        """,
        [("SPMD001", "'x'")],
    ),
    "partial_of_a_helper_is_followed": (
        """
        def helper(v, k):
            return jax.shard_map(lambda u: u * k, mesh=mesh, in_specs=P('x'), out_specs=P())(v)
        jax.vmap(partial(helper, k=2), spmd_axis_name='x')
        """,
        [("SPMD001", "'x'")],
    ),
    "sibling_shard_map_is_not_reached": (
        """
        def f(v):
            return v * 2
        sm = jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
        y = jax.vmap(f, spmd_axis_name='x')(1)
        z = sm(y)
        """,
        [],
    ),
    "local_vmap_name_is_not_jax": (
        """
        def vmap(f, spmd_axis_name=None):
            return f
        def f(v):
            return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('x'), out_specs=P())(v)
        vmap(f, spmd_axis_name='x')
        """,
        [],
    ),
    "parameter_shadows_jax": (
        """
        def run(jax, f):
            return jax.vmap(f, spmd_axis_name='x')
        """,
        [],
    ),
    "axis_in_strings_and_comments_only": (
        """
        def f(v):
            '''P('x') in a docstring'''
            # jax.vmap(f, spmd_axis_name='x')
            return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [],
    ),
    "spec_built_at_run_time_stays_silent": (
        """
        def f(v, names):
            return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P(*names), out_specs=P())(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [],
    ),
    "computed_axis_name_stays_silent": (
        """
        def f(v):
            return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('x'), out_specs=P())(v)
        jax.vmap(f, spmd_axis_name='x'.upper().lower())
        """,
        [],
    ),
    "kwargs_dict_literal": (
        """
        def f(v):
            return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('x'), out_specs=P())(v)
        def run(xs):
            kw = dict(spmd_axis_name='x')
            return jax.vmap(f, **kw)(xs)
        """,
        [("SPMD001", "'x'")],
    ),
    "flax_module_call_is_followed": (
        """
        import flax.linen as nn
        class Block(nn.Module):
            @nn.compact
            def __call__(self, v):
                return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('x'), out_specs=P())(v)
        VBlock = nn.vmap(Block, variable_axes={'params': 0}, split_rngs={'params': True}, spmd_axis_name='x')
        """,
        [("SPMD001", "'x'")],
    ),
    "nnx_vmap": (
        """
        from flax import nnx
        def f(v):
            return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('y'), out_specs=P('x'), check_vma=False)(v)
        nnx.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD002", "'x'")],
    ),
    "collective_over_spmd_axis": (
        """
        def f(v):
            return jax.shard_map(lambda u: jax.lax.psum(u, 'x'), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD004", "'x'")],
    ),
    "sharding_constraint": (
        """
        from jax.sharding import NamedSharding
        def f(v):
            v = jax.lax.with_sharding_constraint(v, NamedSharding(mesh, P('x', None)))
            return v
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD005", "'x'")],
    ),
    "sharding_constraint_with_a_shard_map": (
        """
        from jax.sharding import NamedSharding
        def f(v):
            v = jax.lax.with_sharding_constraint(v, NamedSharding(mesh, P('x', None)))
            return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD005", "'x'")],
    ),
    "inner_vmap_under_check_vma": (
        """
        def block(v):
            return jax.shard_map(lambda u: u * 2, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        def row(r):
            return jax.vmap(block)(r)
        jax.vmap(row, spmd_axis_name='x')
        """,
        [("SPMD007", "jax.vmap")],
    ),
    "capture_respects_in_axes_none": (
        """
        def f(v, c):
            return jax.shard_map(lambda u: u * c, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
        [],
    ),
    "capture_through_a_helper": (
        """
        def helper(t, scale):
            def body(u):
                return u * scale
            return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(t)
        def f(v, w):
            return helper(v, w + 1)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD003", "scale")],
    ),
    "collective_over_a_batched_operand_is_spmd004": (
        """
        def f(x, w):
            return jax.shard_map(
                lambda a, b: b + jax.lax.psum(a, 'x'), mesh=mesh, in_specs=(P(), P()), out_specs=P()
            )(x, w)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
        [("SPMD004", "'x'")],
    ),
    "collective_over_an_unbatched_operand_is_not_spmd004": (
        """
        def f(x, w):
            return jax.shard_map(
                lambda a, b: a + jax.lax.psum(b, 'x'), mesh=mesh, in_specs=(P(), P()), out_specs=P()
            )(x, w)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
        [],
    ),
    # a jitted shard_map applied where it is built (fuzz seed 7143): the jit call's operands are its operands
    "collective_over_an_unbatched_operand_of_a_jitted_shard_map_is_not_spmd004": (
        """
        def f(x, w):
            return jax.jit(jax.shard_map(
                lambda a, b: a + jax.lax.psum(b, 'x'), mesh=mesh, in_specs=(P(), P()), out_specs=P()
            ))(x, w)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
        [],
    ),
    "collective_over_a_batched_operand_of_a_jitted_shard_map_is_spmd004": (
        """
        def f(x, w):
            return jax.jit(jax.shard_map(
                lambda a, b: b + jax.lax.psum(a, 'x'), mesh=mesh, in_specs=(P(), P()), out_specs=P()
            ))(x, w)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
        [("SPMD004", "'x'")],
    ),
    # a body decorated with the shard_map (fuzz seed 4715): every call of its name is an application
    "collective_over_an_unbatched_operand_of_a_decorated_body_is_not_spmd004": (
        """
        def f(x, w):
            @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P()), out_specs=P())
            def body(a, b):
                return a + jax.lax.psum(b, 'x')
            return body(x, w) + body(x, w * 2.0)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
        [],
    ),
    "collective_over_an_operand_one_call_of_a_decorated_body_batches_is_spmd004": (
        """
        def f(x, w):
            @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P()), out_specs=P())
            def body(a, b):
                return a + jax.lax.psum(b, 'x')
            return body(x, w) + body(w, x)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
        [("SPMD004", "'x'")],
    ),
    "collective_over_an_unbatched_operand_of_a_decorated_body_passed_elsewhere_is_spmd004": (
        """
        def f(x, w):
            @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P()), out_specs=P())
            def body(a, b):
                return a + jax.lax.psum(b, 'x')
            return body(x, w) + helper(body)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
        [("SPMD004", "'x'")],
    ),
    "collective_over_an_unbatched_operand_of_a_decorated_body_called_by_keyword_is_spmd004": (
        """
        def f(x, w):
            @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P()), out_specs=P())
            def body(a, b):
                return a + jax.lax.psum(b, 'x')
            return body(x, b=w)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
        [("SPMD004", "'x'")],
    ),
    "collective_over_a_size1_axis_with_check_vma_is_spmd004": (
        """
        m1 = Mesh(np.array(jax.devices()).reshape(1, 8), ('b', 'i'))
        def f(x):
            return jax.shard_map(lambda v: v + jax.lax.psum(v, 'b'), mesh=m1, in_specs=P('i'), out_specs=P('i'))(x)
        jax.vmap(f, spmd_axis_name='b')
        """,
        [("SPMD004", "'b'")],
    ),
    "inner_vmap_over_a_binary_body_is_spmd007": (
        """
        def f(x):
            return jax.shard_map(jax.vmap(lambda r: r * 2.0), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD007", "jax.vmap")],
    ),
    "inner_vmap_over_a_unary_body_is_not_spmd007": (
        """
        def f(x):
            return jax.shard_map(jax.vmap(lambda r: -jax.numpy.sin(r) ** 2), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [],
    ),
    # lax.map(batch_size=k) fails for the bodies an inner vmap fails for; a static slice runs (fuzz seed 110652,
    # safety/measurements/spmd007_lax_map_body_ops.py)
    "lax_map_batch_size_over_a_static_slice_is_not_spmd007": (
        """
        def block(x):
            n = x.shape[-1]
            def body(b):
                b = jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)
                return b[0:n] ** 2
            return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)
        jax.vmap(lambda v: jax.lax.map(block, v, batch_size=2), spmd_axis_name='x')
        """,
        [],
    ),
    "lax_map_batch_size_over_a_static_slice_then_binary_is_spmd007": (
        """
        def block(x):
            n = x.shape[-1]
            def body(b):
                b = jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)
                return b * 2.0 + 1.0
            return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)
        jax.vmap(lambda v: jax.lax.map(block, v, batch_size=2), spmd_axis_name='x')
        """,
        [("SPMD007", "jax.lax.map")],
    ),
    # psum/pmax/pmin over a literal axis other than the spmd one, and products with a module constant, run under an
    # inner vmap or lax.map(batch_size) like unary steps (safety/measurements/spmd007_body_collectives_constants.py)
    "inner_vmap_over_psum_pmax_of_another_axis_is_not_spmd007": (
        """
        def body(b):
            return jax.lax.pmax(jax.numpy.sin(jax.lax.psum(b, 'y')), ('y',)) ** 2
        def block(v):
            return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P())(v)
        jax.vmap(jax.vmap(block), spmd_axis_name='x')
        """,
        [],
    ),
    "inner_vmap_over_psum_of_the_spmd_axis_is_spmd007": (
        """
        def block(v):
            return jax.shard_map(lambda b: jax.lax.psum(b, 'x'), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(jax.vmap(block), spmd_axis_name='x')
        """,
        [("SPMD004", "'x'"), ("SPMD007", "jax.vmap")],
    ),
    "inner_vmap_over_pmean_or_a_psum_then_binary_is_spmd007": (
        """
        def block(v):
            return jax.shard_map(lambda b: jax.lax.pmean(b, 'y'), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        def block2(v):
            return jax.shard_map(lambda b: jax.lax.psum(b, 'y') * 2.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(jax.vmap(block), spmd_axis_name='x')
        jax.vmap(jax.vmap(block2), spmd_axis_name='x')
        """,
        [("SPMD007", "jax.vmap"), ("SPMD007", "jax.vmap")],
    ),
    # (a one-axis tuple runs as the axis: safety/measurements/spmd007_tuple_collective_axes.py)
    "inner_vmap_over_psum_of_an_unread_name_is_spmd007_not_of_a_one_axis_tuple": (
        """
        AXIS = 'y'
        AXIS = 'z'
        def block(v):
            return jax.shard_map(lambda b: jax.lax.psum(b, ('y',)), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        def block2(v):
            return jax.shard_map(lambda b: jax.lax.psum(b, AXIS), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(jax.vmap(block), spmd_axis_name='x')
        jax.vmap(jax.vmap(block2), spmd_axis_name='x')
        """,
        [("SPMD007", "jax.vmap")],
    ),
    "inner_vmap_over_psum_of_a_name_bound_to_an_axis_is_not_spmd007_unless_the_spmd_axis": (
        """
        DATA = 'y'
        SPMD = 'x'
        def block(v):
            return jax.shard_map(lambda b: jax.lax.pmin(b, (DATA,)), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        def block2(v):
            return jax.shard_map(lambda b: jax.lax.psum(b, SPMD), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(jax.vmap(block), spmd_axis_name='x')
        jax.vmap(jax.vmap(block2), spmd_axis_name='x')
        """,
        [("SPMD004", "SPMD"), ("SPMD007", "jax.vmap")],
    ),
    "psum_inside_an_inner_vmapped_lambda_of_the_body_is_spmd007": (
        """
        def block(v):
            return jax.shard_map(jax.vmap(lambda r: jax.lax.psum(r, 'y')), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(block, spmd_axis_name='x')
        """,
        [("SPMD007", "jax.vmap")],
    ),
    "lax_map_batch_size_over_products_with_module_constants_is_not_spmd007": (
        """
        M = np.linspace(-1.0, 1.0, 4, dtype=np.float32).reshape(2, 2)
        A = np.array([[1.0, 0.5], [0.0, 1.0]], dtype=np.float32)
        J = jax.numpy.ones((2, 2)) * 0.5
        def body(b):
            h = jax.numpy.tanh(M @ (b @ M))
            h = jax.numpy.dot(J, jax.numpy.dot(h, J))
            return jax.numpy.matmul(jax.numpy.einsum('i,ij->j', h, A), M)
        def block(x):
            return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(lambda v: jax.lax.map(block, v, batch_size=2), spmd_axis_name='x')
        """,
        [],
    ),
    "lax_map_batch_size_over_products_not_measured_is_spmd007": (
        """
        M = np.linspace(-1.0, 1.0, 4, dtype=np.float32).reshape(2, 2)
        def g1(x):
            return jax.shard_map(lambda b: b @ M + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        def g2(x):
            return jax.shard_map(lambda b: b * M[0], mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        def g3(x):
            return jax.shard_map(lambda b: jax.numpy.matmul(M, b), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        def g4(x):
            return jax.shard_map(lambda b: jax.numpy.einsum('ij,j->i', M, b), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        def g5(x):
            return jax.shard_map(lambda b: jax.numpy.dot(b, M, precision=None), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(lambda v: jax.lax.map(g1, v, batch_size=2), spmd_axis_name='x')
        jax.vmap(lambda v: jax.lax.map(g2, v, batch_size=2), spmd_axis_name='x')
        jax.vmap(lambda v: jax.lax.map(g3, v, batch_size=2), spmd_axis_name='x')
        jax.vmap(lambda v: jax.lax.map(g4, v, batch_size=2), spmd_axis_name='x')
        jax.vmap(lambda v: jax.lax.map(g5, v, batch_size=2), spmd_axis_name='x')
        """,
        [("SPMD007", "jax.lax.map")] * 5,
    ),
    # a product with a value the spmd vmap batches fails (measured); SPMD003 reports the capture (SPMD007 then
    # leaves the site to it, as for any batched capture)
    "product_with_a_value_of_the_vmapped_function_is_spmd003": (
        """
        def f(v):
            m = jax.numpy.outer(v[0, :2], v[0, :2])
            g = jax.shard_map(lambda b: b @ m, mesh=mesh, in_specs=P('y'), out_specs=P('y'))
            return jax.vmap(g)(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD003", "m")],
    ),
    "body_applying_an_inner_vmap_of_a_unary_lambda_is_not_spmd007": (  # fuzz seed 5842
        """
        def body(b):
            return jax.vmap(lambda r: jax.numpy.sin(r))(b)
        def f(x):
            return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        jax.vmap(f, spmd_axis_name='y')
        """,
        [],
    ),
    # cumulative ops: measured to run under H2 (safety/measurements/spmd007_cumulative_ops.py, fuzz seed 1077)
    "inner_vmap_over_cumulative_ops_is_not_spmd007": (
        """
        def body(b):
            return jax.vmap(lambda r: jax.lax.cummax(jax.numpy.cumsum(r, axis=-1), axis=0, reverse=True))(b)
        def f(x):
            return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        jax.vmap(f, spmd_axis_name='y')
        """,
        [],
    ),
    "inner_vmap_over_nancumsum_is_spmd007": (  # measured to raise the pvary error
        """
        def f(x):
            return jax.shard_map(jax.vmap(lambda r: jax.numpy.nancumsum(r, axis=-1)), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD007", "jax.vmap")],
    ),
    "inner_vmap_over_cumsum_with_a_dtype_is_spmd007": (  # not measured: reported
        """
        def f(x):
            return jax.shard_map(jax.vmap(lambda r: jax.numpy.cumsum(r, dtype=jax.numpy.float16)), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD007", "jax.vmap")],
    ),
    "inner_vmap_over_cumsum_with_a_computed_axis_is_spmd007": (  # not measured: reported
        """
        def f(x):
            return jax.shard_map(jax.vmap(lambda r: jax.numpy.cumsum(r, axis=r.ndim - 1)), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD007", "jax.vmap")],
    ),
    "inner_vmap_over_a_cumsum_of_a_binary_step_is_spmd007": (
        """
        def f(x):
            return jax.shard_map(jax.vmap(lambda r: jax.numpy.cumsum(r * 2.0)), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD007", "jax.vmap")],
    ),
    "body_applying_an_inner_vmap_of_a_binary_lambda_is_spmd007": (
        """
        def body(b):
            return jax.vmap(lambda r: r * 2.0)(b)
        def f(x):
            return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        jax.vmap(f, spmd_axis_name='y')
        """,
        [("SPMD007", "jax.vmap")],
    ),
    # measured (safety/measurements/spmd007_binary_beside_inner_vmap.py; fuzz seed 20245): binary steps beside an
    # inner vmap of a unary lambda run; inside it, or with the vmap between the spmd vmap and the shard_map, not
    "binary_steps_beside_an_inner_vmap_of_a_unary_lambda_are_no_h2": (
        """
        def f(x):
            n = x.shape[0]
            def body(b):
                return jax.vmap(lambda r: jax.numpy.sin(r))(b * 2.0) * b + n
            return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        jax.vmap(f, spmd_axis_name='y')
        """,
        [],
    ),
    "a_second_inner_vmap_of_a_binary_lambda_in_the_body_is_spmd007": (
        """
        def f(x):
            def body(b):
                return jax.vmap(lambda r: jax.numpy.sin(r))(b) * jax.vmap(lambda r: r + 1.0)(b)
            return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        jax.vmap(f, spmd_axis_name='y')
        """,
        [("SPMD007", "jax.vmap"), ("SPMD007", "jax.vmap")],
    ),
    "binary_steps_beside_an_inner_vmap_under_a_vmap_between_are_spmd007": (
        """
        def g(x):
            return jax.shard_map(lambda b: jax.vmap(lambda r: jax.numpy.sin(r))(b) * b, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        def f(x):
            return jax.vmap(g)(x)
        jax.vmap(f, spmd_axis_name='y')
        """,
        [("SPMD007", "jax.vmap"), ("SPMD007", "jax.vmap")],
    ),
    # jax.smap: specs read from in_axes/out_axes (each int leaf names axis_name), manual axis = axis_name
    "smap_call_in_and_out_axes": (
        """
        def f(v):
            return jax.smap(lambda b: b, in_axes=0, out_axes=0, axis_name='x')(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD001", "0"), ("SPMD002", "0")],
    ),
    "smap_factory_tuple_in_axes_and_imported_name": (
        """
        from jax import smap
        IN = (None, 1)
        def f(v, w):
            return smap(in_axes=IN, out_axes={'a': None, 'b': 0}, axis_name='x')(lambda b, c: b)(v, w)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD001", "IN"), ("SPMD002", "0")],
    ),
    "smap_partial_decorator_other_axis_is_spmd008": (
        """
        @partial(jax.smap, in_axes=0, out_axes=0, axis_name='x')
        def g(b):
            return b
        jax.vmap(g, spmd_axis_name=('x', 'y'))
        """,
        [("SPMD001", "0"), ("SPMD002", "0"), ("SPMD008", "'x'")],
    ),
    "smap_unmapped_axes_is_clean": (
        """
        def f(v):
            return jax.smap(lambda b: b, in_axes=None, out_axes=None, axis_name='x')(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [],
    ),
    # an inner jax.vmap mapping away the dimension after the batch, placed on an Explicit axis (seeds 321, 407;
    # safety/measurements/inner_vmap_explicit_placement.py)
    "inner_vmap_maps_away_a_placed_spmd_axis_is_spmd006": (
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def g(r):
            return jax.shard_map(lambda b: jax.numpy.sin(b), mesh=em, in_specs=P(), out_specs=P())(r)
        def f(x):
            return jax.vmap(g)(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8, 8)), NamedSharding(em, P(None, 'x', None)))
            return jax.vmap(f, spmd_axis_name='x')(xs)
        """,
        [("SPMD006", "jax.shard_map(lambda b: jax.numpy.sin(b), mesh=em, in_specs=P(), out_specs=P())")],
    ),
    "inner_vmap_maps_away_a_placed_axis_the_specs_name_is_spmd006": (
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def g(r):
            return jax.shard_map(lambda b: jax.numpy.sin(b), mesh=em, in_specs=P('x'), out_specs=P('x'))(r)
        def f(x, w):
            return jax.vmap(g, in_axes=(0,))(x) * w
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8, 8)), NamedSharding(em, P(None, 'x', None)))
            return jax.vmap(f, in_axes=(0, None), spmd_axis_name='y')(xs, 2.0)
        """,
        [("SPMD006", "'x'"), ("SPMD006", "'x'")],
    ),
    "inner_vmap_not_mapping_the_placed_argument_is_not_spmd006": (
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def g(r, k):
            return jax.shard_map(lambda b: jax.numpy.sin(b), mesh=em, in_specs=P(), out_specs=P())(r)
        def f(x, k):
            return jax.vmap(g, in_axes=(None, 0))(x, k)
        def run(ks):
            xs = jax.device_put(jax.numpy.ones((8, 8, 8)), NamedSharding(em, P(None, 'x', None)))
            return jax.vmap(f, spmd_axis_name='x')(xs, ks)
        """,
        [],
    ),
    "dimension_after_the_batch_placed_without_an_inner_vmap_is_not_spmd006": (
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(x):
            return jax.shard_map(lambda b: jax.numpy.sin(b), mesh=em, in_specs=P('x'), out_specs=P('x'))(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8, 8)), NamedSharding(em, P(None, 'x', None)))
            return jax.vmap(f, spmd_axis_name='y')(xs)
        """,
        [],
    ),
    "inner_vmap_over_a_placed_axis_on_an_auto_mesh_is_not_spmd006": (
        """
        from jax.sharding import NamedSharding
        def g(r):
            return jax.shard_map(lambda b: jax.numpy.sin(b), mesh=mesh, in_specs=P(), out_specs=P())(r)
        def f(x):
            return jax.vmap(g)(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8, 8)), NamedSharding(mesh, P(None, 'x', None)))
            return jax.vmap(f, spmd_axis_name='x')(xs)
        """,
        [],
    ),
    "smap_in_axes_omitted_is_not_read": (
        """
        def f(v):
            return jax.smap(lambda b: b, out_axes=1, axis_name='y')(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        [("SPMD008", "'y'")],
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_detection(name: str) -> None:
    body, expected = CASES[name]
    source = HEADER + textwrap.dedent(body)
    found = [(f.code, source[f.span.start : f.span.end]) for f in check_source(source)]
    assert found == expected


def _fix(source: str, transform: str):
    finding = check_source(HEADER + textwrap.dedent(source))[0]
    return next((f for f in finding.fixes if f.transform.value == transform), None)


def test_instance_call_is_followed_into_its_class_call() -> None:
    # Fresh-user report: a shard_map inside an object's __call__ whose body psums over 'y' made a
    # rename onto 'y' look safe. Following __call__ shows 'y' is used: rename is not offered.
    source = """
        mesh3 = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))
        class Head:
            def __call__(self, h):
                body = lambda b: jax.lax.psum(b, 'y')
                return jax.shard_map(body, mesh=mesh3, in_specs=P(None, 'z'), out_specs=P(None, 'z'))(h)
        head = Head()
        def f(v):
            h = jax.shard_map(lambda b: b, mesh=mesh3, in_specs=P('x', 'z'), out_specs=P('x', 'z'))(v)
            return head(h)
        jax.vmap(f, spmd_axis_name='x')
        """
    assert _fix(source, "rename") is None


def test_a_call_spmdfix_cannot_follow_makes_rename_unsafe() -> None:
    source = """
        mesh3 = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))
        def f(v, post):
            h = jax.shard_map(lambda b: b, mesh=mesh3, in_specs=P('x'), out_specs=P('x'))(v)
            return post(h)
        jax.vmap(f, spmd_axis_name='x', in_axes=(0, None))(np.ones((4, 8)), abs)
        """
    fix = _fix(source, "rename")
    assert fix is not None and fix.applicability.value == "unsafe"
    assert "could not be followed" in fix.reason
    plain = source.replace("return post(h)", "return h")
    assert _fix(plain, "rename").applicability.value == "safe"  # the batch of 4 divides the new axis 'y' (2)
    assert _fix(plain.replace("(4, 8)", "(3, 8)"), "rename") is None  # 3 is not divisible: not offered


def test_smap_offers_only_drop_spmd_axis() -> None:
    source = """
        def f(v):
            return jax.smap(lambda b: b * 2.0, in_axes=0, out_axes=0, axis_name='x')(v)
        jax.vmap(f, spmd_axis_name='x')
        """
    for finding in check_source(HEADER + textwrap.dedent(source)):
        assert [f.transform.value for f in finding.fixes] == ["drop-spmd-axis"]
        assert {r.transform.value for r in finding.refusals} >= {"rename", "add-axis", "strip"}


OTHER_CALLER_CASES = {
    "only_the_vmap": (
        """
        def layer(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
        def main(xs):
            return jax.vmap(layer, spmd_axis_name='x')(xs)
        """,
        [],
    ),
    "called_directly_elsewhere": (
        """
        def layer(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
        def main(xs):
            return jax.vmap(layer, spmd_axis_name='x')(xs), jax.jit(layer)(xs[0])
        """,
        ["jax.jit(layer)"],
    ),
    "traced_helper_also_called_elsewhere": (
        """
        def layer(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
        def helper(v):
            return jax.lax.cond(True, layer, layer, v)
        def main(xs):
            return jax.vmap(helper, spmd_axis_name='x')(xs), jax.vmap(helper)(xs)
        """,
        ["jax.vmap(helper)"],
    ),
    "factory_and_jit_alias_used_only_by_the_vmap": (
        """
        def make():
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
        g = jax.jit(make())
        def main(xs):
            return jax.vmap(g, spmd_axis_name='x')(xs)
        """,
        [],
    ),
    "factory_called_twice": (
        """
        def make():
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
        g = make()
        def main(xs):
            return jax.vmap(g, spmd_axis_name='x')(xs), make()(xs)
        """,
        ["make()(xs)"],
    ),
    "instance_call_outside_the_vmap": (
        """
        class Act:
            def __call__(self, v):
                return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
        act = Act()
        def main(xs):
            return jax.vmap(act, spmd_axis_name='x')(xs), Act()(xs[0])
        """,
        ["Act()(xs[0])"],
    ),
    "method_callers_are_not_searched": (
        """
        class Layer:
            def run(self, v):
                return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
            def __call__(self, xs):
                return jax.vmap(self.run, spmd_axis_name='x')(xs)
        """,
        ["callers of the method run (not searched)"],
    ),
    "vmap_decorator_name_called_anywhere": (
        """
        @partial(jax.vmap, spmd_axis_name='x')
        def f(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
        def main(xs):
            return f(xs)
        """,
        [],
    ),
}


@pytest.mark.parametrize("name", OTHER_CALLER_CASES)
def test_other_callers_of_a_reached_shard_map(name: str) -> None:
    """The places that run a reached shard_map without the spmd vmap (analysis.callers): a strip there is
    unsafe and its reason names them."""
    import ast

    from spmdfix.analysis.analyzer import Analyzer
    from spmdfix.analysis.kinds import VmapKind
    from spmdfix.analysis.module_model import ModuleModel

    body, expected = OTHER_CALLER_CASES[name]
    source = HEADER + textwrap.dedent(body)
    facts = [f for f in Analyzer(ModuleModel.build(source, ast.parse(source))).facts() if f.kind is VmapKind.SPMD]
    places = [p for f in facts for r in f.reached for p in r.other_callers]
    assert [p.split("`")[1] for p in places] == expected
    strip = _fix(body, "strip")
    assert strip is not None
    if expected:
        assert strip.applicability.value == "unsafe" and expected[0] in strip.reason
    else:
        assert strip.applicability.value == "safe"


@pytest.mark.parametrize(
    ("calls", "sizes"),
    [
        ("mesh = build_mesh(dp=2, tp=4)", (2, 4)),
        ("mesh = build_mesh(2, 4)", (2, 4)),
        ("mesh = build_mesh(2, tp=4)\nother = build_mesh(2, tp=4)", (2, 4)),
        ("mesh = build_mesh(2, 4)\nother = build_mesh(4, 2)", (None, None)),  # the callers disagree
    ],
)
def test_a_mesh_helper_taking_its_shape_as_arguments_is_resolved(calls: str, sizes) -> None:
    import ast

    from spmdfix.analysis.analyzer import Analyzer
    from spmdfix.analysis.module_model import ModuleModel

    source = (
        "import jax\nfrom jax.sharding import PartitionSpec as P\n"
        "def build_mesh(dp, tp):\n    return jax.make_mesh((dp, tp), ('data', 'model'))\n"
        f"{calls}\n"
        "def f(v):\n    return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(v)\n"
        "jax.vmap(f, spmd_axis_name='data')\n"
    )
    [facts] = Analyzer(ModuleModel.build(source, ast.parse(source))).facts()
    mesh = facts.reached[0].shard_map.mesh
    assert mesh is not None and mesh.axis_names == ("data", "model") and mesh.sizes == sizes
    assert source[mesh.shape_span.start : mesh.shape_span.end] == "(dp, tp)"  # add-axis edits the helper


def _member_by_walking(reacher, cls, name: str, depth: int = 0):
    """What `ClassMembers.member` (once `Reacher._member`) answered before it indexed class members: each
    method walked per lookup."""
    import ast

    from spmdfix.analysis.bindings import BindingKind

    if depth > 8:
        return None
    class_scope = reacher.ix.own_scope(cls)
    values = []
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if stmt.name == name:
                return stmt, class_scope
            for node in ast.walk(stmt):
                if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr == name and isinstance(t.value, ast.Name)
                    and t.value.id == "self"
                    for t in node.targets
                ):
                    values.append((node.value, reacher.ix.scope_at(node.value)))
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None and isinstance(stmt.target, ast.Name):
            if stmt.target.id == name:
                values.append((stmt.value, class_scope))
        elif isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            values.append((stmt.value, class_scope))
    if len(values) == 1:
        return values[0]
    if values:
        return None
    for base in cls.bases:
        if isinstance(base, ast.Name):
            bound = reacher.ix.single_binding(base.id, reacher.ix.scope_at(cls))
            if bound is not None and bound.kind is BindingKind.CLASS:
                found = _member_by_walking(reacher, bound.node, name, depth + 1)
                if found is not None:
                    return found
    return None


def test_class_members_are_found_as_a_walk_of_every_method_finds_them() -> None:
    """`ClassMembers.member` (once `Reacher._member`) looks `self.name` up in an index of the class built
    once; it answers what walking every method for each lookup answered: the first method of the name, else
    the one value assigned."""
    import ast

    from spmdfix.analysis.members import ClassMembers
    from spmdfix.analysis.scopes import ModuleIndex

    source = textwrap.dedent(
        """
        class Base:
            shared = 1
            def setup(self):
                self.base_only = lambda v: v
        class C(Base):
            a: int = 1
            a2 = b2 = 2
            def __init__(self):
                self.x = self.x2 = f
                self.y = g
                (self.t, self.u) = (1, 2)
                other.z = 3
                def inner():
                    self.n = 4
                class Nested:
                    def m(self):
                        self.q = 5
            def setup(self):
                self.y = h
                self.shared = 6
            def x2(self):
                pass
            def x2(self):
                pass
            async def amethod(self):
                self.w = 7
            x = 8
        class D(C):
            def m(self):
                self.a = 9
        """
    )
    tree = ast.parse(source)
    reacher = ClassMembers(ModuleIndex(source, tree))
    names = ["a", "a2", "b2", "x", "x2", "y", "t", "u", "z", "n", "q", "shared", "base_only", "w", "setup", "m", "no"]
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    answers = 0
    for cls in classes:
        for name in names:
            expected = _member_by_walking(reacher, cls, name)
            found = reacher.member(cls, name)
            assert (found is None) == (expected is None), (cls.name, name)
            if found is not None:
                assert found[0] is expected[0] and found[1] is expected[1], (cls.name, name)
                answers += 1
    assert answers > 20


def test_a_partial_manual_shard_map_without_the_spmd_axis_is_spmd008_and_add_axis_extends_axis_names() -> None:
    source = """
        def f(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(v)
        jax.vmap(f, spmd_axis_name='y')
        """
    text = HEADER + textwrap.dedent(source)
    [finding] = check_source(text)
    assert finding.code == "SPMD008" and text[finding.span.start : finding.span.end] == "{'x'}"
    add = _fix(source, "add-axis")
    assert add is not None and any(e.kind == "insert" and e.code == "'batch'" for e in add.node_edits)
    assert check_source(text.replace("spmd_axis_name='y'", "spmd_axis_name='x'")) != []  # SPMD001/002 there
    assert all(f.code != "SPMD008" for f in check_source(text.replace("{'x'}", "{'x', 'y'}")))


def test_lift_captures_and_the_axis_names_append_name_the_other_callers() -> None:
    """lift-captures edits the shard_map's body and call, rename/add-axis its `axis_names`: both change a
    shard_map that also runs without the vmap, so both are unsafe there and name the place."""
    capture = """
        def layer(v, w):
            return jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        def main(xs, ws):
            return jax.vmap(layer, spmd_axis_name='x')(xs, ws), layer(xs[0], ws[0])
        """
    lift = _fix(capture, "lift-captures")
    assert lift is not None and lift.applicability.value == "unsafe" and "layer(xs[0], ws[0])" in lift.reason
    alone = _fix(capture.replace(", layer(xs[0], ws[0])", ""), "lift-captures")
    assert alone is not None and alone.applicability.value == "safe"
    partial_manual = """
        def layer(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(v)
        def main(xs):
            return jax.vmap(layer, spmd_axis_name='y')(xs), jax.jit(layer)(xs[0])
        """
    add = _fix(partial_manual, "add-axis")
    assert add is not None and add.applicability.value == "unsafe" and "jax.jit(layer)" in add.reason


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("from a import *\n", 1),
        ("from a import \\\n    *\n", 1),
        ("from .a  import\t*\nfrom b import *\n", 2),
        ("from a import b\nx = 2 * 3\n", 0),
        ("import a\n\n\ndef f(*args, **kw):\n    return a.g(*args)\n", 0),
        ('s = "no star import here"\n', 0),
    ],
)
def test_star_imports_are_found_however_they_are_written(text: str, count: int) -> None:
    """`ModuleIndex.star_imports` walks only a text holding `import` followed by `*`: it finds what a walk of
    every node finds, continuation lines included."""
    import ast

    from spmdfix.analysis.scopes import ModuleIndex

    tree = ast.parse(text)
    walked = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)]
    assert ModuleIndex(text, tree).star_imports() == walked and len(walked) == count


def test_star_imports_of_the_golden_inputs_are_those_a_walk_finds() -> None:
    import ast
    from pathlib import Path

    from spmdfix.analysis.scopes import ModuleIndex

    golden = Path(__file__).resolve().parent.parent / "golden"
    checked = 0
    for path in sorted(golden.rglob("*.py")):
        text = path.read_text()
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        walked = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)]
        assert ModuleIndex(text, tree).star_imports() == walked, path
        checked += 1
    assert checked > 100


_EAGER_EXPLICIT_COND = """
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
K = 3
FLAG = False
TWICE = 1
TWICE = 2


def neg(v):
    return -v


def block(r):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(r)


def apply(v, flag=True):
    return {call}


xs = jax.device_put(np.ones((4, 8), np.float32), NamedSharding(mesh, P('x', None)))
jax.vmap(apply, spmd_axis_name='x')(xs)
"""


@pytest.mark.parametrize(
    ("call", "reported"),
    [
        ("jax.lax.cond(K > 0, block, neg, v)", False),
        ("jax.lax.cond(True, block, neg, v)", False),
        ("jax.lax.cond(not FLAG and K >= 1, block, neg, v)", False),
        ("jax.lax.switch(0, [block, neg], v)", False),
        ("jax.lax.switch(-1, [neg, block], v)", False),
        ("jax.lax.cond(v.shape[0] > 1, block, neg, v)", False),  # static shape reads (measured)
        ("jax.lax.cond(v.ndim == 1 and len(v) > 1, block, neg, v)", False),
        ("jax.lax.cond(v.shape[-1] >= K, block, neg, v)", False),
        ("jax.lax.switch(len(v) - 8, [block, neg], v)", False),
        ("jax.lax.cond(v.sum() > 0, block, neg, v)", True),  # batched: fails as the direct call does
        ("jax.lax.cond(v.shape[K - 3] > 1, block, neg, v)", True),  # an index that is not a literal: not read
        ("jax.lax.cond(v.size > 1, block, neg, v)", True),  # `.size`: not among the measured reads
        ("jax.lax.cond(v.sum().shape[0] > 1, block, neg, v)", True),  # the shape of a call: not a name's
        ("jax.lax.cond(v.shape[0] > v.sum(), block, neg, v)", True),
        ("jax.lax.cond(v.shape[0] / 2 > 1, block, neg, v)", True),  # a float division: not int arithmetic
        ("jax.lax.cond(flag, block, neg, v)", True),  # a parameter: may be passed a batched value
        ("jax.lax.cond(TWICE > 0, block, neg, v)", True),  # bound twice: not read as one constant
        ("jax.lax.cond(1.5 > 0, block, neg, v)", True),  # a float literal: not among the measured forms
        ("jax.lax.cond(K > 0, lambda u: block(u) + block(u), neg, v) + block(v)", True),  # a direct way too
        ("block(v)", True),
    ],
)
def test_cond_on_a_constant_predicate_stages_the_eager_explicit_check_vma_false_case(call: str, reported: bool) -> None:
    """SPMD008's eager `check_vma=False` case: a `lax.cond`/`lax.switch` whose predicate is a constant the
    evaluator reads stages the shard_map, as `jax.lax.map` does (measured:
    safety/measurements/spmd008_cond_unbatched_predicate.py); any other predicate keeps the finding."""
    found = [f.code for f in check_source(_EAGER_EXPLICIT_COND.format(call=call))]
    assert ("SPMD008" in found) is reported, found
