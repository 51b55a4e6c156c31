"""Hazard H2's allowlist: which calls a shard_map body may make and still run under the spmd vmap after a fix.

Run: python safety/measurements/h2_call_allowlist.py [--write] [--only NAME ...]   (jax 0.10.2, CPU, 8 devices;
about 15 minutes on a loaded 2-core machine). With `--write` it regenerates `spmdfix/analysis/h2_allowlist.py`,
the data `analysis.shard_map_facts` judges rename / add-axis / strip by; `--only` measures the named entries
(`jax.numpy.sin`, `Array.sum`, `builtins.abs`, a hand case's name) and prints them, writing nothing.

What is measured. For every public callable of `jax.numpy`, `jax.lax`, `jax.nn`, `jax.numpy.linalg`,
`jax.numpy.fft`, `jax.scipy.special` and `jax.scipy.linalg` the script can call generically (unary `f(b)`,
binary `f(b, b)`, `f(b, k)`, `f(k, b)` with `b` the body's block and `k` an invariant constant made in the body (for strip one rank lower: `Ctx`),
blocks of rank 1 `(4,)` and rank 2 `(4, 4)`), for the public methods of `jax.Array` (`b.m()`, `b.m(b)`), and for
a hand table of calls that need other arguments (collectives over a mesh axis, reshapes, `einsum`,
`dot_general`, `scan`/`fori_loop`/`while_loop`/`map`/`cond` with simple bodies, `jnp.where`, `jax.random` with a
key made in the body, `jax.tree.map`, `jax.grad`, the `.at[]` updates, Python builtins), it runs a shard_map
body applying the call (`check_vma=True`, under `jax.jit`) on a small mesh in the program each fix leaves:

- `rename`: mesh `('x', 'y')` (2, 2), in/out_specs `P('x')`, `jax.vmap(..., spmd_axis_name='y')` (the free axis);
- `add_axis`: mesh `('batch', 'x', 'y')` (1, 2, 2), `P('x')`, `spmd_axis_name='batch'` (the new size-1 axis);
- `strip`: mesh `('x', 'y')` (2, 2), `P()` (the spmd axis stripped), `spmd_axis_name='x'`.

Each form is first run under a plain `jax.vmap` of the same shard_map (the control: JAX defines the program
there) and compared with a reference computed without sharding (the body applied block by block, a collective
simulated over the blocks); a form whose control fails or differs is not applicable (the call is not a valid
body that way, or the reference does not model it). A call is ALLOWED for a fix kind when at least one form is
applicable and every applicable form runs and matches under the spmd vmap. Forms are run in chunks (one body
applying many calls); a chunk that fails is split until the failing calls are found one by one.

`jax.random` is measured by hand cases only (its functions take a key, not an array to batch): bodies draw
dropout masks and noise (`bernoulli`, `normal`, `uniform`, `split`, `fold_in`, `key`, `PRNGKey`).
"""

from __future__ import annotations

import argparse
import builtins
import inspect
import os
import sys
import time
import warnings

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
warnings.filterwarnings("ignore")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, PartitionSpec as P  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "spmdfix", "analysis", "h2_allowlist.py")

MODULES = {
    "jax.numpy": jnp,
    "jax.lax": jax.lax,
    "jax.nn": jax.nn,
    "jax.numpy.linalg": jnp.linalg,
    "jax.numpy.fft": jnp.fft,
    "jax.scipy.special": jax.scipy.special,
    "jax.scipy.linalg": jax.scipy.linalg,
    "numpy": np,
    "math": __import__("math"),
}
# NumPy's and `math`'s functions mostly refuse a traced value (`TracerArrayConversionError`, a concretization
# error): those no form of which takes one (some refusing it so) compute constants only in a program that runs (`np.prod(shape)`,
# `math.sqrt(d)`) and are allowed as `STATIC`; those that take one (`np.sum(b)` calls `b.sum()`) are measured as
# JAX's are.
STATIC_MODULES = ("numpy.", "math.")
TRACER_ERRORS = (
    jax.errors.TracerArrayConversionError, jax.errors.TracerBoolConversionError,
    jax.errors.TracerIntegerConversionError, jax.errors.ConcretizationTypeError,
)
# Never called generically: host I/O and callbacks, which can block or need a host function.
SKIP = {"infeed", "outfeed", "pure_callback", "io_callback", "debug_callback", "create_token", "after_all",
        # NumPy's files, tests and global settings
        "test", "save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "genfromtxt", "fromfile", "memmap",
        "fromregex", "DataSource", "info", "show_config", "show_runtime", "get_include", "printoptions"}

BATCH = 4
N = 4  # block length on every dimension
DEVICES = np.array(jax.devices()[:4])


class FixKind:
    """The program a fix leaves: its mesh, the specs of the (one) operand and output, the spmd axis, how many
    blocks an element of the batch splits into along its first dimension, and the non-spmd axis collectives
    run over (split: the blocks are along it; not split: its devices hold the same block)."""

    def __init__(self, name, shape, axes, spec, spmd, split, coll_axis):
        self.name, self.spec, self.spmd, self.split, self.coll_axis = name, spec, spmd, split, coll_axis
        self.mesh = Mesh(DEVICES.reshape(shape), axes)
        self.coll_size = dict(zip(axes, shape))[coll_axis]


KINDS = [
    FixKind("rename", (2, 2), ("x", "y"), P("x"), "y", 2, "x"),
    FixKind("add_axis", (1, 2, 2), ("batch", "x", "y"), P("x"), "batch", 2, "x"),
    FixKind("strip", (2, 2), ("x", "y"), P(), "x", 1, "y"),
]


def block_values(rank: int, salt: int = 0) -> np.ndarray:
    """Values in (0.05, 0.95), distinct, of one block (domain-limited functions: log, arccos, ...)."""
    shape = (N,) * rank
    size = int(np.prod(shape))
    v = (np.arange(size, dtype=np.float64) * 7 + 3 + salt) % size
    return (0.05 + 0.9 * (v + 0.5) / size).astype(np.float32).reshape(shape)


def elements(kind: FixKind, rank: int) -> np.ndarray:
    """The batch the spmd vmap maps: BATCH elements, each `kind.split` blocks along its first dimension."""
    out = []
    for i in range(BATCH):
        blocks = [block_values(rank, salt=i * 5 + j) for j in range(kind.split)]
        out.append(np.concatenate(blocks, axis=0))
    return np.stack(out)


def constant(rank: int):
    """An invariant operand made inside the body (no capture): a literal array of the block's shape."""
    return jnp.asarray(block_values(rank, salt=11) * 0.5 + 0.2)


def flat(out):
    """The output leaves of one call, each as a float32 row `(1, size)` (complex: real and imaginary parts),
    so that every call's output fits out_specs `P('x')` / `P()` whatever its shape or dtype."""
    rows = []
    for leaf in jax.tree.leaves(out):
        leaf = jnp.asarray(leaf)
        if jnp.issubdtype(leaf.dtype, jnp.complexfloating):
            leaf = jnp.concatenate([jnp.real(leaf).ravel(), jnp.imag(leaf).ravel()])
        elif jnp.issubdtype(leaf.dtype, jax.dtypes.prng_key):
            leaf = jax.random.key_data(leaf)
        rows.append(jnp.reshape(leaf.astype(jnp.float32), (1, -1)))
    return rows


class Form:
    """One way of calling an entry: `apply(b, ctx)` gives the call's output for a block (`ctx`: the fix kind's
    collective axis and its size); `reference(blocks, kind)`, the outputs block by block without sharding
    (None: apply `apply` to each block outside any shard_map)."""

    def __init__(self, entry, label, rank, apply, reference=None):
        self.entry, self.label, self.rank, self.apply, self.reference = entry, label, rank, apply, reference


def generic_forms(qname: str, fn) -> list[Form]:
    forms = []
    for rank in (1, 2):
        forms.append(Form(qname, f"f(b) rank {rank}", rank, lambda b, c, fn=fn: fn(b)))
        forms.append(Form(qname, f"f(b, b) rank {rank}", rank, lambda b, c, fn=fn: fn(b, b)))
        forms.append(Form(qname, f"f(b, k) rank {rank}", rank, lambda b, c, fn=fn, r=rank: fn(b, c.const(r))))
        forms.append(Form(qname, f"f(k, b) rank {rank}", rank, lambda b, c, fn=fn, r=rank: fn(c.const(r), b)))
    return forms


def method_forms(name: str) -> list[Form]:
    qname = f"Array.{name}"
    forms = []
    for rank in (1, 2):
        forms.append(Form(qname, f"b.{name}() rank {rank}", rank, lambda b, c, n=name: getattr(b, n)()))
        forms.append(Form(qname, f"b.{name}(b) rank {rank}", rank, lambda b, c, n=name: getattr(b, n)(b)))
    return forms


def _cycle(blocks):
    return blocks[-1:] + blocks[:-1]


def hand_forms() -> list[Form]:
    """Calls a generic caller cannot make: named here with the argument values bodies give them."""
    lax, F = jax.lax, []

    def add(qname, label, rank, apply, reference=None):
        F.append(Form(qname, label, rank, apply, reference))

    # collectives over the fix kind's non-spmd axis (the one the block is split on, or for strip one it is not)
    add("jax.lax.psum", "psum(b, A)", 1, lambda b, c: lax.psum(b, c.coll_axis), lambda bl, k: [sum(bl)] * len(bl))
    add("jax.lax.pmean", "pmean(b, A)", 1, lambda b, c: lax.pmean(b, c.coll_axis), lambda bl, k: [sum(bl) / len(bl)] * len(bl))
    add("jax.lax.pmax", "pmax(b, A)", 1, lambda b, c: lax.pmax(b, c.coll_axis), lambda bl, k: [np.maximum.reduce(bl)] * len(bl))
    add("jax.lax.pmin", "pmin(b, A)", 1, lambda b, c: lax.pmin(b, c.coll_axis), lambda bl, k: [np.minimum.reduce(bl)] * len(bl))
    add("jax.lax.psum", "b - psum(b, A)", 1, lambda b, c: b - lax.psum(b, c.coll_axis), lambda bl, k: [x - sum(bl) for x in bl])
    add("jax.lax.pmean", "b - pmean(b, A)", 1, lambda b, c: b - lax.pmean(b, c.coll_axis), lambda bl, k: [x - sum(bl) / len(bl) for x in bl])
    add("jax.lax.all_gather", "all_gather(b, A, tiled=True)", 1, lambda b, c: lax.all_gather(b, c.coll_axis, tiled=True),
        lambda bl, k: [np.concatenate(bl)] * len(bl))
    add("jax.lax.all_gather", "all_gather(b, A)", 1, lambda b, c: lax.all_gather(b, c.coll_axis),
        lambda bl, k: [np.stack(bl)] * len(bl))
    add("jax.lax.ppermute", "ppermute(b, A, cycle)", 1,
        lambda b, c: lax.ppermute(b, c.coll_axis, [(i, (i + 1) % c.coll_size) for i in range(c.coll_size)]),
        lambda bl, k: _cycle(bl))
    add("jax.lax.axis_index", "b + axis_index(A)", 1, lambda b, c: b + lax.axis_index(c.coll_axis),
        lambda bl, k: [x + i for i, x in enumerate(bl)])
    add("jax.lax.psum_scatter", "psum_scatter(b, A, tiled=True)", 1,
        lambda b, c: lax.psum_scatter(b, c.coll_axis, tiled=True),
        lambda bl, k: list(np.split(sum(bl), len(bl))))
    add("jax.lax.all_to_all", "all_to_all(b, A, 0, 0, tiled=True)", 1,
        lambda b, c: lax.all_to_all(b, c.coll_axis, 0, 0, tiled=True),
        lambda bl, k: [np.concatenate([np.split(x, len(bl))[i] for x in bl]) for i in range(len(bl))])
    add("jax.lax.axis_size", "b * axis_size(A)", 1, lambda b, c: b * lax.axis_size(c.coll_axis), lambda bl, k: [x * len(bl) for x in bl])
    add("jax.lax.pvary", "pvary(b, A)", 1, lambda b, c: lax.pvary(b, c.coll_axis) if hasattr(lax, "pvary") else b)
    # shapes, contractions, selection
    add("jax.numpy.reshape", "reshape(b, (2, -1))", 2, lambda b, c: jnp.reshape(b, (2, -1)))
    add("jax.numpy.reshape", "reshape(b, -1)", 2, lambda b, c: jnp.reshape(b, -1))
    add("jax.lax.reshape", "lax.reshape(b, (2, 8))", 2, lambda b, c: lax.reshape(b, (2, 8)))
    add("jax.numpy.einsum", "einsum('ij,jk->ik', b, b)", 2, lambda b, c: jnp.einsum("ij,jk->ik", b, b))
    add("jax.numpy.einsum", "einsum('ij,jk->ik', b, k)", 2, lambda b, c: jnp.einsum("ij,jk->ik", b, c.const(2)))
    add("jax.numpy.einsum", "einsum('ij->j', b)", 2, lambda b, c: jnp.einsum("ij->j", b))
    add("jax.numpy.einsum", "einsum('i,i->', b, b)", 1, lambda b, c: jnp.einsum("i,i->", b, b))
    add("jax.lax.dot_general", "dot_general(b, k, (((1,), (0,)), ((), ())))", 2,
        lambda b, c: lax.dot_general(b, c.const(2), (((1,), (0,)), ((), ()))))
    add("jax.lax.dot_general", "dot_general(b, b, (((1,), (1,)), ((0,), (0,))))", 2,
        lambda b, c: lax.dot_general(b, b, (((1,), (1,)), ((0,), (0,)))))
    add("jax.numpy.where", "where(b > 0.5, b, 0.0)", 1, lambda b, c: jnp.where(b > 0.5, b, 0.0))
    add("jax.numpy.where", "where(b > 0.5, b, k)", 1, lambda b, c: jnp.where(b > 0.5, b, c.const(1)))
    add("jax.numpy.where", "where(k > 0.4, b, 1.0)", 1, lambda b, c: jnp.where(c.const(1) > 0.4, b, 1.0))
    add("jax.lax.select", "select(b > 0.5, b, k)", 1, lambda b, c: lax.select(b > 0.5, b, c.const(1)))
    add("jax.numpy.take", "take(b, [2, 0])", 1, lambda b, c: jnp.take(b, jnp.array([2, 0])))
    add("jax.numpy.take_along_axis", "take_along_axis(b, argsort(b), 0)", 1,
        lambda b, c: jnp.take_along_axis(b, jnp.argsort(b), 0))
    add("jax.numpy.transpose", "transpose(b, (1, 0))", 2, lambda b, c: jnp.transpose(b, (1, 0)))
    add("jax.numpy.swapaxes", "swapaxes(b, 0, 1)", 2, lambda b, c: jnp.swapaxes(b, 0, 1))
    add("jax.numpy.moveaxis", "moveaxis(b, 0, 1)", 2, lambda b, c: jnp.moveaxis(b, 0, 1))
    add("jax.numpy.expand_dims", "expand_dims(b, 0)", 1, lambda b, c: jnp.expand_dims(b, 0))
    add("jax.numpy.squeeze", "squeeze(b[None])", 1, lambda b, c: jnp.squeeze(b[None]))
    add("jax.numpy.broadcast_to", "broadcast_to(b, (2, 4))", 1, lambda b, c: jnp.broadcast_to(b, (2, N)))
    add("jax.numpy.concatenate", "concatenate([b, b])", 1, lambda b, c: jnp.concatenate([b, b]))
    add("jax.numpy.concatenate", "concatenate([b, k])", 1, lambda b, c: jnp.concatenate([b, c.const(1)]))
    add("jax.numpy.stack", "stack([b, k])", 1, lambda b, c: jnp.stack([b, c.const(1)]))
    add("jax.numpy.split", "split(b, 2)", 1, lambda b, c: jnp.split(b, 2))
    add("jax.numpy.pad", "pad(b, 1)", 1, lambda b, c: jnp.pad(b, 1))
    add("jax.numpy.roll", "roll(b, 1)", 1, lambda b, c: jnp.roll(b, 1))
    add("jax.numpy.tile", "tile(b, 2)", 1, lambda b, c: jnp.tile(b, 2))
    add("jax.numpy.repeat", "repeat(b, 2)", 1, lambda b, c: jnp.repeat(b, 2))
    add("jax.numpy.zeros_like", "zeros_like(b) + b", 1, lambda b, c: jnp.zeros_like(b) + b)
    add("jax.numpy.ones_like", "ones_like(b) * b", 1, lambda b, c: jnp.ones_like(b) * b)
    add("jax.numpy.full_like", "full_like(b, 2.0) * b", 1, lambda b, c: jnp.full_like(b, 2.0) * b)
    add("jax.numpy.zeros", "zeros(b.shape) + b", 1, lambda b, c: jnp.zeros(b.shape) + b)
    add("jax.numpy.ones", "ones(b.shape) * b", 1, lambda b, c: jnp.ones(b.shape) * b)
    add("jax.numpy.full", "full(b.shape, 2.0) * b", 1, lambda b, c: jnp.full(b.shape, 2.0) * b)
    add("jax.numpy.arange", "arange(4) * b", 1, lambda b, c: jnp.arange(N) * b)
    add("jax.numpy.linspace", "linspace(0, 1, 4) * b", 1, lambda b, c: jnp.linspace(0.0, 1.0, N) * b)
    add("jax.numpy.eye", "eye(4) @ b", 2, lambda b, c: jnp.eye(N) @ b)
    add("jax.numpy.array", "array([1., 2., 3., 4.]) * b", 1, lambda b, c: jnp.array([1.0, 2.0, 3.0, 4.0]) * b)
    add("jax.numpy.asarray", "asarray(b) * 2", 1, lambda b, c: jnp.asarray(b) * 2)
    add("jax.numpy.tril", "tril(b)", 2, lambda b, c: jnp.tril(b))
    add("jax.numpy.triu", "triu(b)", 2, lambda b, c: jnp.triu(b))
    add("jax.nn.one_hot", "one_hot(argmax(b), 4)", 1, lambda b, c: jax.nn.one_hot(jnp.argmax(b), N))
    add("jax.nn.one_hot", "one_hot(int(b * 4), 4)", 1, lambda b, c: jax.nn.one_hot((b * N).astype(jnp.int32), N))
    add("jax.numpy.linalg.cholesky", "cholesky(b @ b.T + eye)", 2, lambda b, c: jnp.linalg.cholesky(b @ b.T + jnp.eye(N)))
    add("jax.lax.dynamic_slice", "dynamic_slice(b, (1,), (2,))", 1, lambda b, c: jax.lax.dynamic_slice(b, (1,), (2,)))
    add("jax.lax.dynamic_slice_in_dim", "dynamic_slice_in_dim(b, 1, 2)", 1, lambda b, c: jax.lax.dynamic_slice_in_dim(b, 1, 2))
    add("jax.lax.dynamic_update_slice", "dynamic_update_slice(b, k[:2], (1,))", 1,
        lambda b, c: jax.lax.dynamic_update_slice(b, c.const(1)[:2], (1,)))
    add("jax.lax.dynamic_index_in_dim", "dynamic_index_in_dim(b, 1)", 1, lambda b, c: jax.lax.dynamic_index_in_dim(b, 1))
    add("jax.lax.slice", "slice(b, (1,), (3,))", 1, lambda b, c: jax.lax.slice(b, (1,), (3,)))
    add("jax.lax.slice_in_dim", "slice_in_dim(b, 1, 3)", 1, lambda b, c: jax.lax.slice_in_dim(b, 1, 3))
    add("jax.lax.index_in_dim", "index_in_dim(b, 1)", 1, lambda b, c: jax.lax.index_in_dim(b, 1))
    add("jax.lax.broadcast_in_dim", "broadcast_in_dim(b, (2, 4), (1,))", 1, lambda b, c: lax.broadcast_in_dim(b, (2, N), (1,)))
    add("jax.lax.broadcast", "broadcast(b, (2,))", 1, lambda b, c: lax.broadcast(b, (2,)))
    add("jax.lax.convert_element_type", "convert_element_type(b, int32)", 1, lambda b, c: lax.convert_element_type(b * 8, jnp.int32))
    add("jax.lax.reduce", "reduce(b, 0., add, (0,))", 1, lambda b, c: lax.reduce(b, 0.0, lax.add, (0,)))
    add("jax.lax.reduce_sum", "reduce_sum(b, (0,))", 1, lambda b, c: lax.reduce_sum(b, (0,)) if hasattr(lax, "reduce_sum") else b.sum())
    add("jax.lax.full", "full((4,), 2.) * b", 1, lambda b, c: lax.full((N,), 2.0) * b)
    add("jax.lax.full_like", "full_like(b, 2.) * b", 1, lambda b, c: lax.full_like(b, 2.0) * b)
    add("jax.lax.iota", "iota(float32, 4) * b", 1, lambda b, c: lax.iota(jnp.float32, N) * b)
    add("jax.lax.pad", "pad(b, 0., [(1, 1, 0)])", 1, lambda b, c: lax.pad(b, 0.0, [(1, 1, 0)]))
    add("jax.lax.concatenate", "concatenate([b, b], 0)", 1, lambda b, c: lax.concatenate([b, b], 0))
    add("jax.lax.transpose", "transpose(b, (1, 0))", 2, lambda b, c: lax.transpose(b, (1, 0)))
    add("jax.lax.rev", "rev(b, (0,))", 1, lambda b, c: lax.rev(b, (0,)))
    add("jax.lax.squeeze", "squeeze(b[None], (0,))", 1, lambda b, c: lax.squeeze(b[None], (0,)))
    add("jax.lax.expand_dims", "expand_dims(b, (0,))", 1, lambda b, c: lax.expand_dims(b, (0,)))
    add("jax.lax.top_k", "top_k(b, 2)", 1, lambda b, c: lax.top_k(b, 2))
    add("jax.lax.sort", "sort(b)", 1, lambda b, c: lax.sort(b))
    add("jax.lax.cumsum", "cumsum(b)", 1, lambda b, c: lax.cumsum(b))
    add("jax.lax.clamp", "clamp(0.3, b, 0.7)", 1, lambda b, c: lax.clamp(0.3, b, 0.7))
    add("jax.lax.integer_pow", "integer_pow(b, 3)", 1, lambda b, c: lax.integer_pow(b, 3))
    add("jax.lax.reduce_precision", "reduce_precision(b, 8, 7)", 1, lambda b, c: lax.reduce_precision(b, 8, 7))
    add("jax.lax.stop_gradient", "stop_gradient(b)", 1, lambda b, c: lax.stop_gradient(b))
    add("jax.lax.precision", "b", 1, lambda b, c: b)  # (a class: only named in `precision=` arguments)
    add("jax.lax.rsqrt", "rsqrt(b)", 1, lambda b, c: lax.rsqrt(b))
    add("jax.lax.erf_inv", "erf_inv(b)", 1, lambda b, c: lax.erf_inv(b))
    add("jax.lax.optimization_barrier", "optimization_barrier(b)", 1, lambda b, c: lax.optimization_barrier(b))
    add("jax.numpy.histogram", "histogram(b, 4, (0, 1))[0]", 1, lambda b, c: jnp.histogram(b, 4, (0.0, 1.0))[0])
    add("jax.numpy.interp", "interp(b, xp, fp)", 1, lambda b, c: jnp.interp(b, jnp.linspace(0, 1, 5), jnp.linspace(1, 2, 5)))
    add("jax.numpy.searchsorted", "searchsorted(xp, b)", 1, lambda b, c: jnp.searchsorted(jnp.linspace(0, 1, 5), b))
    add("jax.numpy.digitize", "digitize(b, xp)", 1, lambda b, c: jnp.digitize(b, jnp.linspace(0, 1, 5)))
    add("jax.numpy.polyval", "polyval([1., 2.], b)", 1, lambda b, c: jnp.polyval(jnp.array([1.0, 2.0]), b))
    add("jax.numpy.piecewise", "piecewise(b, [b < .5], [0., 1.])", 1, lambda b, c: jnp.piecewise(b, [b < 0.5], [0.0, 1.0]))
    add("jax.numpy.clip", "clip(b, 0.3, 0.7)", 1, lambda b, c: jnp.clip(b, 0.3, 0.7))
    add("jax.numpy.clip", "clip(b, min=0.3)", 1, lambda b, c: jnp.clip(b, min=0.3))
    add("jax.numpy.linalg.norm", "norm(b, axis=-1)", 2, lambda b, c: jnp.linalg.norm(b, axis=-1))
    add("jax.numpy.sum", "sum(b, axis=0)", 2, lambda b, c: jnp.sum(b, axis=0))
    add("jax.numpy.mean", "mean(b, axis=-1, keepdims=True)", 2, lambda b, c: jnp.mean(b, axis=-1, keepdims=True))
    add("jax.numpy.max", "max(b, axis=-1)", 2, lambda b, c: jnp.max(b, axis=-1))
    add("jax.numpy.var", "var(b, axis=-1)", 2, lambda b, c: jnp.var(b, axis=-1))
    add("jax.numpy.std", "std(b, axis=-1)", 2, lambda b, c: jnp.std(b, axis=-1))
    add("jax.nn.softmax", "softmax(b, axis=-1)", 2, lambda b, c: jax.nn.softmax(b, axis=-1))
    add("jax.nn.log_softmax", "log_softmax(b, axis=-1)", 2, lambda b, c: jax.nn.log_softmax(b, axis=-1))
    add("jax.nn.logsumexp", "logsumexp(b, axis=-1)", 2, lambda b, c: jax.nn.logsumexp(b, axis=-1))
    add("jax.nn.standardize", "standardize(b, axis=-1)", 2, lambda b, c: jax.nn.standardize(b, axis=-1))
    add("jax.nn.dot_product_attention", "dot_product_attention(q, k, v)", 2,
        lambda b, c: jax.nn.dot_product_attention(b[None, :, None, :], b[None, :, None, :], b[None, :, None, :]))
    add("jax.numpy.astype", "astype(b, int32)", 1, lambda b, c: jnp.astype(b * 8, jnp.int32))
    add("jax.numpy.float32", "float32(b)", 1, lambda b, c: jnp.float32(b))
    add("jax.numpy.int32", "int32(b * 8)", 1, lambda b, c: jnp.int32(b * 8))
    add("jax.numpy.bfloat16", "bfloat16(b)", 1, lambda b, c: jnp.bfloat16(b))
    add("jax.numpy.float16", "float16(b)", 1, lambda b, c: jnp.float16(b))
    add("jax.numpy.dtype", "b.astype(dtype('float32'))", 1, lambda b, c: b.astype(jnp.dtype("float32")))
    add("jax.numpy.finfo", "b * finfo(float32).eps", 1, lambda b, c: b * jnp.finfo(jnp.float32).eps)
    add("jax.numpy.iinfo", "b * iinfo(int8).max", 1, lambda b, c: b * jnp.iinfo(jnp.int8).max)
    add("jax.numpy.promote_types", "b.astype(promote_types(...))", 1, lambda b, c: b.astype(jnp.promote_types(jnp.float16, jnp.float32)))
    add("jax.numpy.result_type", "b.astype(result_type(b))", 1, lambda b, c: b.astype(jnp.result_type(b)))
    add("jax.numpy.shape", "b * shape(b)[0]", 1, lambda b, c: b * jnp.shape(b)[0])
    add("jax.numpy.ndim", "b * ndim(b)", 1, lambda b, c: b * jnp.ndim(b))
    add("jax.numpy.size", "b * size(b)", 1, lambda b, c: b * jnp.size(b))
    add("jax.numpy.issubdtype", "b * issubdtype(b.dtype, floating)", 1, lambda b, c: b * jnp.issubdtype(b.dtype, jnp.floating))
    add("jax.numpy.meshgrid", "meshgrid(b, k)", 1, lambda b, c: jnp.meshgrid(b, c.const(1)))
    add("jax.numpy.outer", "outer(b, k)", 1, lambda b, c: jnp.outer(b, c.const(1)))
    add("jax.numpy.matmul", "matmul(b, b)", 2, lambda b, c: jnp.matmul(b, b))
    add("jax.numpy.dot", "dot(b, k)", 2, lambda b, c: jnp.dot(b, c.const(2)))
    add("jax.numpy.tensordot", "tensordot(b, k, 1)", 2, lambda b, c: jnp.tensordot(b, c.const(2), 1))
    # loops and branches with simple bodies
    add("jax.lax.scan", "scan(carry + x, 0., b)", 1, lambda b, c: lax.scan(lambda s, x: (s + x, s * x), 0.0, b))
    add("jax.lax.scan", "scan(carry * k, b, None, 3)", 1, lambda b, c: lax.scan(lambda s, _: (s * 0.5 + 1.0, s), b, None, 3))
    add("jax.lax.fori_loop", "fori_loop(0, 3, v * 2 + 1, b)", 1, lambda b, c: lax.fori_loop(0, 3, lambda i, v: v * 0.5 + 1.0, b))
    add("jax.lax.fori_loop", "fori_loop(0, 3, v + i * k, b)", 1, lambda b, c: lax.fori_loop(0, 3, lambda i, v: v + i * c.const(1), b))
    add("jax.lax.while_loop", "while_loop(i < 3, ...)", 1,
        lambda b, c: lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1] * 0.5 + 1.0), (0, b))[1])
    add("jax.lax.map", "map(sin, b)", 1, lambda b, c: lax.map(jnp.sin, b))
    add("jax.lax.map", "map(x * k, b)", 2, lambda b, c: lax.map(lambda r: r * c.const(1), b))
    add("jax.lax.map:batch_size", "map(x * k, b, batch_size=2)", 2, lambda b, c: lax.map(lambda r: r * c.const(1), b, batch_size=2))
    add("jax.lax.associative_scan", "associative_scan(add, b)", 1, lambda b, c: lax.associative_scan(jnp.add, b))
    add("jax.lax.cond:literal", "cond(True, sin, cos, b)", 1, lambda b, c: lax.cond(True, jnp.sin, jnp.cos, b))
    add("jax.lax.cond", "cond(b.sum() > 1, x * 2, x + 1, b)", 1, lambda b, c: lax.cond(b.sum() > 1.0, lambda x: x * 2.0, lambda x: x + 1.0, b))
    add("jax.lax.cond", "cond(b.sum() > 1, sin, cos, b)", 1, lambda b, c: lax.cond(b.sum() > 1.0, jnp.sin, jnp.cos, b))
    add("jax.lax.switch:literal", "switch(0, [sin, cos], b)", 1, lambda b, c: lax.switch(0, [jnp.sin, jnp.cos], b))
    add("jax.lax.switch", "switch(int(b[0] * 2), [sin, cos], b)", 1,
        lambda b, c: lax.switch((b[0] * 2).astype(jnp.int32), [jnp.sin, jnp.cos], b))
    add("jax.lax.select_n", "select_n(b > .5, b, k)", 1, lambda b, c: lax.select_n(b > 0.5, b, c.const(1)))
    add("jax.numpy.vectorize", "vectorize(sin)(b)", 1, lambda b, c: jnp.vectorize(jnp.sin)(b))
    add("jax.numpy.vectorize", "vectorize(t * 2)(b)", 1, lambda b, c: jnp.vectorize(lambda t: t * 2.0)(b))
    add("jax.numpy.frompyfunc", "frompyfunc(add, 2, 1)(b, b)", 1, lambda b, c: jnp.frompyfunc(jnp.add, 2, 1)(b, b))
    add("jax.numpy.apply_along_axis", "apply_along_axis(sum, 0, b)", 2, lambda b, c: jnp.apply_along_axis(jnp.sum, 0, b))
    add("jax.numpy.apply_over_axes", "apply_over_axes(sum, b, [0])", 2, lambda b, c: jnp.apply_over_axes(jnp.sum, b, [0]))
    add("jax.numpy.fromfunction", "fromfunction(i * 2, (4,)) * b", 1, lambda b, c: jnp.fromfunction(lambda i: i * 2.0, (N,)) * b)
    add("jax.numpy.unique", "unique(b, size=4)", 1, lambda b, c: jnp.unique(b, size=N))
    add("jax.numpy.nonzero", "nonzero(b > .5, size=4)", 1, lambda b, c: jnp.nonzero(b > 0.5, size=N))
    add("jax.numpy.argwhere", "argwhere(b > .5, size=4)", 1, lambda b, c: jnp.argwhere(b > 0.5, size=N))
    add("jax.numpy.bincount", "bincount(int(b * 4), length=4)", 1, lambda b, c: jnp.bincount((b * N).astype(jnp.int32), length=N))
    # transforms in the body
    add("jax.grad", "grad(sum(sin))(b)", 1, lambda b, c: jax.grad(lambda t: jnp.sum(jnp.sin(t)))(b))
    add("jax.value_and_grad", "value_and_grad(sum(t * t))(b)", 1, lambda b, c: jax.value_and_grad(lambda t: jnp.sum(t * t))(b))
    add("jax.jvp", "jvp(sin, (b,), (k,))", 1, lambda b, c: jax.jvp(jnp.sin, (b,), (c.const(1),)))
    add("jax.vjp", "vjp(sin, b)[1](k)", 1, lambda b, c: jax.vjp(jnp.sin, b)[1](c.const(1)))
    add("jax.linearize", "linearize(sin, b)[1](k)", 1, lambda b, c: jax.linearize(jnp.sin, b)[1](c.const(1)))
    add("jax.jacfwd", "jacfwd(sin)(b)", 1, lambda b, c: jax.jacfwd(jnp.sin)(b))
    add("jax.jacrev", "jacrev(sin)(b)", 1, lambda b, c: jax.jacrev(jnp.sin)(b))
    add("jax.hessian", "hessian(sum(sin))(b)", 1, lambda b, c: jax.hessian(lambda t: jnp.sum(jnp.sin(t)))(b))
    add("jax.checkpoint", "checkpoint(t * t + 1)(b)", 1, lambda b, c: jax.checkpoint(lambda t: t * t + 1.0)(b))
    add("jax.remat", "remat(t * t + 1)(b)", 1, lambda b, c: jax.remat(lambda t: t * t + 1.0)(b))
    add("jax.jit", "jit(t * k)(b)", 1, lambda b, c: jax.jit(lambda t: t * c.const(1))(b))
    add("jax.named_call", "named_call(t * 2)(b)", 1, lambda b, c: jax.named_call(lambda t: t * 2.0, name="f")(b))
    add("jax.custom_jvp", "custom_jvp(t * 2)(b)", 1, lambda b, c: _custom_jvp_double(b))
    add("jax.custom_vjp", "custom_vjp(t * 2)(b)", 1, lambda b, c: _custom_vjp_double(b))
    add("jax.tree.map", "tree.map(t * 2, (b, b))", 1, lambda b, c: jax.tree.map(lambda t: t * 2.0, (b, b)))
    add("jax.tree.leaves", "tree.leaves({'a': b})[0] * 2", 1, lambda b, c: jax.tree.leaves({"a": b})[0] * 2.0)
    add("jax.tree_util.tree_map", "tree_map(t + k, [b])", 1, lambda b, c: jax.tree_util.tree_map(lambda t: t + c.const(1), [b]))
    add("jax.tree_util.tree_leaves", "tree_leaves([b])[0]", 1, lambda b, c: jax.tree_util.tree_leaves([b])[0])
    add("jax.tree.reduce", "tree.reduce(add, [b, b])", 1, lambda b, c: jax.tree.reduce(jnp.add, [b, b]))
    add("jax.tree.flatten", "tree.flatten([b])[0][0]", 1, lambda b, c: jax.tree.flatten([b])[0][0])
    add("jax.tree.unflatten", "tree.unflatten(...)", 1, lambda b, c: jax.tree.unflatten(jax.tree.structure([0]), [b])[0])
    add("jax.tree.structure", "tree.structure([b])", 1, lambda b, c: b * jax.tree.structure([b]).num_leaves)
    add("jax.named_scope", "with named_scope('s'): b * 2", 1, lambda b, c: _in_named_scope(b))
    add("jax.ensure_compile_time_eval", "with ensure_compile_time_eval(): ...", 1, lambda b, c: _compile_time(b))
    add("jax.debug.print", "debug.print('{}', b)", 1, lambda b, c: _debug_print(b))
    add("jax.typeof", "b * typeof(b).shape[0]", 1, lambda b, c: b * jax.typeof(b).shape[0])
    add("jax.ShapeDtypeStruct", "b * ShapeDtypeStruct(b.shape, b.dtype).shape[0]", 1,
        lambda b, c: b * jax.ShapeDtypeStruct(b.shape, b.dtype).shape[0])
    add("jax.eval_shape", "b * eval_shape(sin, b).shape[0]", 1, lambda b, c: b * jax.eval_shape(jnp.sin, b).shape[0])
    add("jax.dtypes.canonicalize_dtype", "astype(canonicalize_dtype(float64))", 1,
        lambda b, c: b.astype(jax.dtypes.canonicalize_dtype(jnp.float64)))
    # jax.random, with a key made in the body (bodies draw noise and dropout masks so)
    add("jax.random.key", "normal(key(0), b.shape) * b", 1, lambda b, c: jax.random.normal(jax.random.key(0), b.shape) * b)
    add("jax.random.PRNGKey", "uniform(PRNGKey(0), b.shape) + b", 1, lambda b, c: jax.random.uniform(jax.random.PRNGKey(0), b.shape) + b)
    add("jax.random.normal", "normal(key, b.shape) + b", 1, lambda b, c: jax.random.normal(jax.random.key(1), b.shape) + b)
    add("jax.random.uniform", "uniform(key, b.shape) * b", 1, lambda b, c: jax.random.uniform(jax.random.key(2), b.shape) * b)
    add("jax.random.bernoulli", "where(bernoulli(key, .5, b.shape), b, 0)", 1,
        lambda b, c: jnp.where(jax.random.bernoulli(jax.random.key(3), 0.5, b.shape), b, 0.0))
    add("jax.random.split", "normal(split(key)[1], b.shape) + b", 1, lambda b, c: jax.random.normal(jax.random.split(jax.random.key(4))[1], b.shape) + b)
    add("jax.random.fold_in", "normal(fold_in(key, axis_index(A)), b.shape) + b", 1,
        lambda b, c: jax.random.normal(jax.random.fold_in(jax.random.key(5), 3), b.shape) + b)
    add("jax.random.categorical", "categorical(key, b)", 1, lambda b, c: jax.random.categorical(jax.random.key(6), b))
    add("jax.random.truncated_normal", "truncated_normal(key, -1, 1, b.shape) + b", 1,
        lambda b, c: jax.random.truncated_normal(jax.random.key(7), -1.0, 1.0, b.shape) + b)
    add("jax.random.permutation", "permutation(key, b)", 1, lambda b, c: jax.random.permutation(jax.random.key(8), b))
    add("jax.random.randint", "randint(key, b.shape, 0, 4) * b", 1, lambda b, c: jax.random.randint(jax.random.key(9), b.shape, 0, 4) * b)
    add("jax.random.gumbel", "gumbel(key, b.shape) + b", 1, lambda b, c: jax.random.gumbel(jax.random.key(10), b.shape) + b)
    add("jax.random.choice", "choice(key, b, (2,))", 1, lambda b, c: jax.random.choice(jax.random.key(11), b, (2,)))
    # the `.at[]` updates (method calls `set`, `add`, ... on `b.at[i]`)
    add("Array.at.set", "b.at[1].set(k[0])", 1, lambda b, c: b.at[1].set(c.const(1)[0]))
    add("Array.at.set", "b.at[1].set(2.)", 1, lambda b, c: b.at[1].set(2.0))
    add("Array.at.set", "b.at[argmax(b)].set(0.)", 1, lambda b, c: b.at[jnp.argmax(b)].set(0.0))
    add("Array.at.add", "b.at[[0, 0]].add(b[1])", 1, lambda b, c: b.at[jnp.array([0, 0])].add(b[1]))
    add("Array.at.multiply", "b.at[1].multiply(3.)", 1, lambda b, c: b.at[1].multiply(3.0))
    add("Array.at.min", "b.at[1].min(.1)", 1, lambda b, c: b.at[1].min(0.1))
    add("Array.at.max", "b.at[1].max(.9)", 1, lambda b, c: b.at[1].max(0.9))
    add("Array.at.get", "b.at[1:3].get()", 1, lambda b, c: b.at[1:3].get())
    add("Array.at.divide", "b.at[1].divide(2.)", 1, lambda b, c: b.at[1].divide(2.0))
    add("Array.at.power", "b.at[1].power(2)", 1, lambda b, c: b.at[1].power(2))
    add("Array.at.apply", "b.at[1].apply(sin)", 1, lambda b, c: b.at[1].apply(jnp.sin))
    add("jax.lax.conv_general_dilated", "conv_general_dilated(b[None, None], k[None, None], (1, 1), 'SAME')", 2,
        lambda b, c: lax.conv_general_dilated(b[None, None], c.const(2)[None, None] if c.const(2).ndim == 2 else
                                              jnp.ones((1, 1, 2, 2)), (1, 1), "SAME"))
    add("jax.lax.conv", "conv(b[None, None], ones((1, 1, 2, 2)), (1, 1), 'SAME')", 2,
        lambda b, c: lax.conv(b[None, None], jnp.ones((1, 1, 2, 2)), (1, 1), "SAME"))
    add("jax.lax.reduce_window", "reduce_window(b, 0., add, (2,), (1,), 'VALID')", 1,
        lambda b, c: lax.reduce_window(b, 0.0, lax.add, (2,), (1,), "VALID"))
    add("jax.lax.dynamic_update_slice_in_dim", "dynamic_update_slice_in_dim(b, b[:2], 1, 0)", 1,
        lambda b, c: lax.dynamic_update_slice_in_dim(b, b[:2], 1, 0))
    # methods of an array that need arguments (`b.astype()` alone is no valid call)
    add("Array.astype", "b.astype(int32)", 1, lambda b, c: (b * 8).astype(jnp.int32))
    add("Array.astype", "b.astype(bfloat16)", 1, lambda b, c: b.astype(jnp.bfloat16))
    add("Array.reshape", "b.reshape(2, -1)", 2, lambda b, c: b.reshape(2, -1))
    add("Array.reshape", "b.reshape((-1,))", 2, lambda b, c: b.reshape((-1,)))
    add("Array.repeat", "b.repeat(2)", 1, lambda b, c: b.repeat(2))
    add("Array.swapaxes", "b.swapaxes(0, 1)", 2, lambda b, c: b.swapaxes(0, 1))
    add("Array.take", "b.take(array([2, 0]))", 1, lambda b, c: b.take(jnp.array([2, 0])))
    add("Array.nonzero", "(b > .5).nonzero(size=4)", 1, lambda b, c: (b > 0.5).nonzero(size=N))
    add("Array.argpartition", "b.argpartition(1)", 1, lambda b, c: b.argpartition(1))
    add("Array.compress", "b.compress(array([1, 0, 1, 1]), size=3)", 1,
        lambda b, c: b.compress(jnp.array([True, False, True, True]), size=3))
    add("Array.choose", "array([0, 1, 0, 1]).choose([b, k])", 1, lambda b, c: jnp.array([0, 1, 0, 1]).choose([b, c.const(1)]))
    add("Array.sum", "b.sum(axis=0)", 2, lambda b, c: b.sum(axis=0))
    add("Array.mean", "b.mean(-1, keepdims=True)", 2, lambda b, c: b.mean(-1, keepdims=True))
    add("Array.max", "b.max(axis=-1)", 2, lambda b, c: b.max(axis=-1))
    add("Array.transpose", "b.transpose(1, 0)", 2, lambda b, c: b.transpose(1, 0))
    add("Array.clip", "b.clip(0.3, 0.7)", 1, lambda b, c: b.clip(0.3, 0.7))
    add("Array.squeeze", "b[None].squeeze(0)", 1, lambda b, c: b[None].squeeze(0))
    # specs and shardings built in a body (for a constraint: the constraint is judged by its own rule)
    add("jax.P", "b * len(P('x', None))", 1, lambda b, c: b * len(jax.P(c.coll_axis, None)))
    add("jax.sharding.PartitionSpec", "b * len(PartitionSpec('x'))", 1, lambda b, c: b * len(P(c.coll_axis)))
    add("jax.sharding.NamedSharding", "b * (NamedSharding(mesh, P()).spec == P())", 1,
        lambda b, c: b * (jax.sharding.NamedSharding(c.mesh, P()).spec == P()))
    # operators (no call in the source, measured as the body's own steps)
    for label, op in (("b + b", lambda b: b + b), ("b * 2.0", lambda b: b * 2.0), ("b - k", lambda b: b - c.const(1)),
                      ("k / b", lambda b: c.const(1) / b), ("b ** 2", lambda b: b ** 2), ("2.0 ** b", lambda b: 2.0 ** b),
                      ("b @ b", lambda b: b @ b), ("b @ k", lambda b: b @ c.const(2)), ("-b", lambda b: -b),
                      ("b > k", lambda b: b > c.const(2)), ("b[0]", lambda b: b[0]), ("b[::2]", lambda b: b[::2]),
                      ("b[argsort(b)]", lambda b: b[jnp.argsort(b)]), ("b.T", lambda b: b.T), ("b % 0.3", lambda b: b % 0.3),
                      ("b // 0.3", lambda b: b // 0.3), ("(b > .5) & (b < .8)", lambda b: (b > 0.5) & (b < 0.8)),
                      ("b[None, :]", lambda b: b[None, :]), ("b[..., 1:]", lambda b: b[..., 1:])):
        add("operator", label, 2, lambda b, c, op=op: op(b))
    # Python builtins a body calls
    add("builtins.abs", "abs(b)", 1, lambda b, c: abs(b))
    add("builtins.pow", "pow(b, 2)", 1, lambda b, c: pow(b, 2))
    add("builtins.round", "round(b * 4)", 1, lambda b, c: round(b * 4))
    add("builtins.sum", "sum([b, k])", 1, lambda b, c: sum([b, c.const(1)]))
    add("builtins.len", "b * len(b)", 1, lambda b, c: b * len(b))
    add("builtins.range", "sum(b * i for i in range(3))", 1, lambda b, c: sum(b * i for i in range(3)))
    add("builtins.enumerate", "[b * i for i, _ in enumerate(b.shape)]", 1, lambda b, c: [b * i for i, _ in enumerate((1, 2))])
    add("builtins.zip", "[x * y for x, y in zip(b, k)]", 1, lambda b, c: [x * y for x, y in zip(b, c.const(1))])
    add("builtins.list", "list(b)", 1, lambda b, c: list(b))
    add("builtins.tuple", "tuple(b)", 1, lambda b, c: tuple(b))
    add("builtins.dict", "dict(a=b)", 1, lambda b, c: dict(a=b))
    add("builtins.map", "list(map(sin, [b]))", 1, lambda b, c: list(map(jnp.sin, [b])))
    add("builtins.min", "b * min(b.shape)", 1, lambda b, c: b * min(b.shape))
    add("builtins.max", "b * max(b.shape)", 1, lambda b, c: b * max(b.shape))
    add("builtins.int", "b * int(b.shape[0])", 1, lambda b, c: b * int(b.shape[0]))
    add("builtins.float", "b * float(2)", 1, lambda b, c: b * float(2))
    add("builtins.isinstance", "b * isinstance(b, jax.Array)", 1, lambda b, c: b * isinstance(b, jax.Array))
    add("builtins.hasattr", "b * hasattr(b, 'shape')", 1, lambda b, c: b * hasattr(b, "shape"))
    add("builtins.print", "print(b); b", 1, lambda b, c: _printed(b))
    add("builtins.reversed", "list(reversed(b))", 1, lambda b, c: list(reversed(list(b))))
    add("builtins.sorted", "sorted(b.shape)", 1, lambda b, c: b * sorted(b.shape)[0])
    add("builtins.divmod", "divmod(b, .3)", 1, lambda b, c: divmod(b, 0.3))
    add("builtins.all", "b * all(d > 0 for d in b.shape)", 1, lambda b, c: b * all(d > 0 for d in b.shape))
    add("builtins.any", "b * any(d > 9 for d in b.shape)", 1, lambda b, c: b * (1 + any(d > 9 for d in b.shape)))
    add("builtins.type", "b * (type(b.shape) is tuple)", 1, lambda b, c: b * (type(b.shape) is tuple))
    add("builtins.slice", "b[slice(1, 3)]", 1, lambda b, c: b[slice(1, 3)])
    add("builtins.set", "b * len(set(b.shape))", 1, lambda b, c: b * len(set(b.shape)))
    add("builtins.str", "b * len(str(b.ndim))", 1, lambda b, c: b * len(str(b.ndim)))
    add("builtins.getattr", "getattr(b, 'T')", 2, lambda b, c: getattr(b, "T"))
    add("builtins.callable", "b * callable(jnp.sin)", 1, lambda b, c: b * callable(jnp.sin))
    add("builtins.iter", "next(iter([b]))", 1, lambda b, c: next(iter([b])))
    add("builtins.next", "next(iter([b]))", 1, lambda b, c: next(iter([b])))
    add("builtins.bool", "b * bool(b.ndim)", 1, lambda b, c: b * bool(b.ndim))
    add("builtins.id", "b * (id(b) > 0)", 1, lambda b, c: b * (id(b) > 0))
    add("builtins.repr", "b * len(repr(b.shape))", 1, lambda b, c: b * len(repr(b.shape)))
    add("builtins.format", "b * len(format(3, 'd'))", 1, lambda b, c: b * len(format(3, "d")))
    add("builtins.frozenset", "b * len(frozenset(b.shape))", 1, lambda b, c: b * len(frozenset(b.shape)))
    add("builtins.filter", "list(filter(None, [b]))", 1, lambda b, c: list(filter(None, [b, None])))
    # (an exception built in a body is raised at trace time or not at all: built, it computes nothing)
    for name in ("ValueError", "TypeError", "AssertionError", "RuntimeError", "NotImplementedError", "KeyError",
                 "IndexError", "Exception"):
        add(f"builtins.{name}", f"b * ({name}('m') is not None)", 1,
            lambda b, c, e=getattr(builtins, name): b * (e("m") is not None))
    return F


@jax.custom_jvp
def _custom_jvp_double(t):
    return t * 2.0


_custom_jvp_double.defjvp(lambda p, t: (p[0] * 2.0, t[0] * 2.0))


@jax.custom_vjp
def _custom_vjp_double(t):
    return t * 2.0


_custom_vjp_double.defvjp(lambda t: (t * 2.0, None), lambda r, g: (g * 2.0,))


def _in_named_scope(b):
    with jax.named_scope("s"):
        return b * 2.0


def _compile_time(b):
    with jax.ensure_compile_time_eval():
        k = jnp.float32(3.0)
    return b * k


def _debug_print(b):
    jax.debug.print("{}", b.sum() * 0)  # printed once per device and batch element: noisy but harmless
    return b


def _printed(b):
    print(end="")
    return b


class Ctx:
    """What a form's `apply` reads of the fix kind: the collective axis and its size, and `const(rank)`, the
    invariant operand: of the block's rank, but under strip's `P()` one rank lower (a constant of the block's
    shape in an all-replicated body fails under the spmd vmap whatever the function, `ManualAxisType`: strip's
    own rule 21 refuses such operands, safety/measurements/capture_array_broadcast.py; broadcasting runs)."""

    def __init__(self, kind: FixKind):
        self.coll_axis, self.coll_size, self.mesh = kind.coll_axis, kind.coll_size, kind.mesh
        self.lower = kind.name == "strip"

    def const(self, rank: int):
        return constant(max(rank - 1, 0) if self.lower else rank)


def reference(forms: list[Form], kind: FixKind, xs: np.ndarray) -> list:
    """Per form, the rows each batch element gives without sharding: `(BATCH, blocks, size)` per output leaf."""
    ctx = Ctx(kind)
    out = []
    for form in forms:
        jitted = jax.jit(lambda b, f=form: flat(f.apply(b, ctx)))
        per_elem = []
        for e in xs:
            blocks = np.split(e, kind.split, axis=0)
            if form.reference is not None:
                along = blocks if kind.split > 1 else blocks * kind.coll_size
                outs = form.reference([np.asarray(b) for b in along], kind)[: len(blocks)]
                rows = [np.asarray(jax.device_get(r), np.float32).reshape(1, -1) for r in outs]
                per_elem.append([np.concatenate(rows)])
            else:
                got = [jitted(b) for b in blocks]
                per_elem.append([np.concatenate([g[i] for g in got]) for i in range(len(got[0]))])
        out.append([np.stack([p[i] for p in per_elem]) for i in range(len(per_elem[0]))])
    return out


def run(forms: list[Form], kind: FixKind, xs: np.ndarray, spmd: bool) -> list:
    """The forms' outputs from one shard_map body applying them all, vmapped (spmd or plain), under jit."""
    ctx = Ctx(kind)

    def body(b):
        return tuple(tuple(flat(f.apply(b, ctx))) for f in forms)

    smap = jax.shard_map(body, mesh=kind.mesh, in_specs=kind.spec, out_specs=kind.spec, check_vma=True)
    vm = jax.vmap(smap, spmd_axis_name=kind.spmd) if spmd else jax.vmap(smap)
    got = jax.jit(vm)(xs)
    return [[np.asarray(x) for x in g] for g in got]


def same(got, ref) -> bool:
    if len(got) != len(ref):
        return False
    for g, r in zip(got, ref):
        if g.shape != r.shape or not np.allclose(g, r, atol=1e-4, rtol=1e-4, equal_nan=True):
            return False
    return True


def first_line(err: BaseException) -> str:
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    return f"{type(err).__name__}: {lines[0][:120] if lines else ''}"


def measure_chunk(forms, refs, kind, xs, spmd, verdicts):
    """Fill `verdicts[i]` ('ok' or why not) for each form, splitting the chunk until failures are isolated."""
    try:
        got = run([f for f, _ in forms], kind, xs, spmd)
    except Exception as err:  # noqa: BLE001 - the failure is the measurement
        if len(forms) == 1:
            verdicts[forms[0][1]] = first_line(err)
            return
        half = len(forms) // 2
        measure_chunk(forms[:half], refs, kind, xs, spmd, verdicts)
        measure_chunk(forms[half:], refs, kind, xs, spmd, verdicts)
        return
    for (form, i), g in zip(forms, got):
        verdicts[i] = "ok" if same(g, refs[i]) else "WRONG values"


def applicable_reference(forms, kind, xs, static):
    """The forms whose reference computes, with it (a form a block cannot take is left out); `static` counts,
    per entry, its forms and those refused for a traced operand."""
    kept, refs = [], []
    for form in forms:
        counts = static.setdefault(form.entry, [0, 0])
        counts[0] += 1
        try:
            (r,) = reference([form], kind, xs)
        except Exception as err:  # noqa: BLE001 - not a valid call that way
            if isinstance(err, TRACER_ERRORS) or "Only scalar arrays can be converted" in str(err):
                counts[1] += 1  # (`math.sqrt` of a rank-1 array: the same refusal as a tracer's)
            continue
        kept.append(form)
        refs.append(r)
    return kept, refs


def measure(forms: list[Form], chunk: int = 24, log=print) -> tuple[dict, set]:
    """({entry: {kind: [(form label, 'ok' or why not)]}}, the entries of `STATIC_MODULES` every form of which
    refuses a traced operand) over the forms, kind by kind."""
    result: dict = {}
    static: dict = {}
    for kind in KINDS:
        for rank in (1, 2):
            xs = elements(kind, rank)
            of_rank = [f for f in forms if f.rank == rank]
            t0 = time.time()
            kept, refs = applicable_reference(of_rank, kind, xs, static)
            control: dict = {}
            idx = list(enumerate(kept))
            for s in range(0, len(idx), chunk):
                part = [(f, i) for i, f in idx[s:s + chunk]]
                measure_chunk(part, refs, kind, xs, False, control)
            valid = [(f, i) for i, f in idx if control.get(i) == "ok"]
            spmd: dict = {}
            for s in range(0, len(valid), chunk):
                measure_chunk(valid[s:s + chunk], refs, kind, xs, True, spmd)
            for f, i in valid:
                entry = result.setdefault(f.entry, {}).setdefault(kind.name, [])
                entry.append((f.label, spmd[i]))
            log(f"# {kind.name} rank {rank}: {len(of_rank)} forms, {len(kept)} with a reference, "
                f"{len(valid)} valid under a plain vmap, {sum(1 for f, i in valid if spmd[i] == 'ok')} run and match "
                f"under the spmd vmap ({time.time() - t0:.0f}s)")
    constants = {e for e, (n, refused) in static.items() if e.startswith(STATIC_MODULES) and refused and e not in result}
    return result, constants


def candidates() -> list[Form]:
    forms = []
    for prefix, module in MODULES.items():
        for name in sorted(dir(module)):
            if name.startswith("_") or name in SKIP or (module is np and name.startswith("set")):
                continue
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj):
                continue
            forms += generic_forms(f"{prefix}.{name}", obj)
    for name in sorted(dir(jax.Array)):
        if name.startswith("_") or not callable(getattr(jax.Array, name, None)):
            continue
        forms += method_forms(name)
    return forms + hand_forms()


def verdicts(result: dict, constants: set) -> dict:
    """{entry: {kind: 'ok' | first failing form and why}}: ok when every valid form ran and matched, or the
    entry computes constants only (`STATIC_MODULES`)."""
    out = {e: {k.name: "ok" for k in KINDS} for e in constants}
    for entry, kinds in result.items():
        out[entry] = {}
        for kind, rows in kinds.items():
            bad = [f"{label}: {why}" for label, why in rows if why != "ok"]
            out[entry][kind] = "ok" if not bad else bad[0]
    return out


def write_module(table: dict) -> None:
    kinds = [k.name for k in KINDS]
    allowed = {k: sorted(e for e, v in table.items() if v.get(k) == "ok" and e != "operator") for k in kinds}
    refused = {e: {k: w for k, w in v.items() if w != "ok"} for e, v in table.items()}
    refused = {e: v for e, v in sorted(refused.items()) if v and e != "operator"}
    lines = [
        '"""Hazard H2\'s allowlist: the calls a shard_map body may make and still run under the spmd vmap after a fix.',
        "",
        "GENERATED by safety/measurements/h2_call_allowlist.py --write; do not edit by hand (re-run it when JAX",
        "changes: docs/safety.md, \"Hazard H2: the calls a body may make\"). `ALLOWED[kind]`: the qualified names",
        "(`jax.numpy.sin`; `Array.sum` for a method of a JAX array, `Array.at.set` for an `.at[]` update,",
        "`builtins.abs` for a Python builtin; `jax.lax.cond:literal` / `jax.lax.switch:literal` for a predicate or",
        "index written as a Python literal, `jax.lax.map:batch_size` for a `lax.map` given a `batch_size`) measured",
        "to run and match under the spmd vmap in the program the fix `kind` (`rename`, `add_axis`, `strip`) leaves,",
        "`check_vma=True`, in every form measured. `REFUSED`: the",
        "entries valid under a plain vmap that failed or differed under the spmd vmap, with the first such form.",
        '"""',
        "",
        f"JAX_VERSION = {jax.__version__!r}",
        "",
        "ALLOWED: dict[str, frozenset[str]] = {",
    ]
    for k in kinds:
        lines.append(f"    {k!r}: frozenset({{")
        lines += [f"        {e!r}," for e in allowed[k]]
        lines.append("    }),")
    lines += ["}", "", "REFUSED: dict[str, dict[str, str]] = {"]
    for e, v in refused.items():
        lines.append(f"    {e!r}: {{")
        lines += [f"        {k!r}: {w!r}," for k, w in v.items()]
        lines.append("    },")
    lines += ["}", ""]
    with open(OUT, "w") as fh:
        fh.write("\n".join(lines))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args(argv)
    forms = candidates()
    if args.only:
        forms = [f for f in forms if f.entry in args.only]
    print(f"jax {jax.__version__}: {len(forms)} forms of {len({f.entry for f in forms})} entries")
    table = verdicts(*measure(forms, chunk=8 if args.only else 24))
    for entry in sorted(table):
        v = table[entry]
        if args.only or any(w != "ok" for w in v.values()):
            print(f"{entry:40s} " + "; ".join(f"{k}: {w}" for k, w in v.items()))
    for k in KINDS:
        print(f"# {k.name}: {sum(1 for v in table.values() if v.get(k.name) == 'ok')} allowed of {len(table)} measured")
    if args.write and not args.only:
        write_module(table)
        print(f"wrote {os.path.relpath(OUT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
